import { z } from "zod";

/** Shapes shared by every feature's schemas: defined once, referenced everywhere. */
export const ErrorBody = z.object({
  status: z.number(),
  code: z.string(),
  detail: z.string(),
  errors: z.array(z.object({ location: z.string(), message: z.string() })).optional(),
});

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(2000).optional(),
});

export const pageOfSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable() });

export const IdParams = z.object({ id: z.string().min(1).max(100) });

export const Timestamp = z.iso.datetime({ offset: true });

/** The answer of a route that answers 204 with no body (`set.status = 204; return null`). */
export const NoContent = z.null();

/** Standard error responses for the OpenAPI document. */
export const errorResponses = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody } as const;

/**
 * Lists SPEC.md answers in full ("one page holding everything": a ticket's messages and activities,
 * labels, label groups, custom fields, views, saved replies, webhooks) use the page shape with no
 * next page, so every list reads the same way.
 */
export const completeList = <T>(data: T[]): { data: T[]; next_cursor: null } => ({ data, next_cursor: null });
export const completeListSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), next_cursor: z.null() });
