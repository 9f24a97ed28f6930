import { isStorageFull, storageFull } from "../db/storage";
import { DeskError, internalError } from "../lib/errors";

type ValidationIssue = { path?: string; message?: string; summary?: string };

/**
 * Turns anything thrown while handling a request into SPEC.md's error body. Unknown errors are
 * logged by the caller and answered as a bare 500: no message, stack or SQL leaves the process.
 */
export function toDeskError(code: string | number, error: unknown): DeskError | null {
  if (error instanceof DeskError) return error;
  switch (code) {
    case "NOT_FOUND":
      return new DeskError(404, "not_found", "No route matches this path.");
    case "PARSE": {
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof DeskError) return cause;
      return new DeskError(400, "malformed_json", "The request body could not be parsed as JSON.");
    }
    case "VALIDATION": {
      const validation = error as { type?: string; all?: ValidationIssue[] };
      const where = validation.type ?? "body";
      const issues = (validation.all ?? []).map((issue) => ({
        location:
          issue.path && issue.path !== "root"
            ? `${where}.${issue.path.replace(/^\//, "").replaceAll("/", ".")}`
            : where,
        message: issue.message ?? issue.summary ?? "invalid value",
      }));
      return new DeskError(
        422,
        "validation_failed",
        "The request is invalid.",
        issues.length ? issues : [{ location: where, message: "invalid value" }],
      );
    }
    case "INVALID_COOKIE_SIGNATURE":
      return new DeskError(400, "malformed_body", "A cookie could not be read.");
    default:
      // A full disk is the operator's to fix and the client's to retry: 507, not a bare 500.
      return isStorageFull(error) ? storageFull() : null;
  }
}

export const asDeskError = (code: string | number, error: unknown): DeskError =>
  toDeskError(code, error) ?? internalError();
