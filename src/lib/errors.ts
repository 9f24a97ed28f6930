/** One error type for every failure: its fields are SPEC.md's error body. */
export type FieldError = { location: string; message: string };

export class DeskError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }

  toBody(): { status: number; code: string; detail: string; errors?: FieldError[] } {
    return this.errors
      ? { status: this.status, code: this.code, detail: this.detail, errors: this.errors }
      : { status: this.status, code: this.code, detail: this.detail };
  }
}

export const unauthorized = (detail = "Missing or invalid credentials.") => new DeskError(401, "unauthorized", detail);
export const forbidden = (detail = "Your role or the key's scopes do not allow this.") =>
  new DeskError(403, "forbidden", detail);
export const notFound = (what = "Resource") => new DeskError(404, "not_found", `${what} not found.`);
export const conflict = (detail: string, code = "conflict") => new DeskError(409, code, detail);
export const validationFailed = (errors: FieldError[], detail = "The request is invalid.") =>
  new DeskError(422, "validation_failed", detail, errors);
/** A 422 with a single located error. */
export const invalidAt = (location: string, message: string, code = "validation_failed") =>
  new DeskError(422, code, message, [{ location, message }]);
export const tooLarge = (detail = "The request body is too large.") => new DeskError(413, "too_large", detail);
export const rateLimited = (retryAfterSeconds: number, headers: Record<string, string> = {}) =>
  new DeskError(429, "rate_limited", "Too many requests; try again later.", undefined, {
    ...headers,
    "Retry-After": String(retryAfterSeconds),
  });
export const internalError = () => new DeskError(500, "internal_error", "Something went wrong on our side.");
