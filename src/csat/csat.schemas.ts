import { z } from "zod";

export const CSAT_COMMENT_MAX = 2000;

/** What the rating link shows: the question about one ticket, and the rating given so far (if any). */
export const CsatRequestSchema = z.object({
  workspace: z.object({ name: z.string(), brand_color: z.string().nullable() }),
  ticket: z.object({ number: z.number(), subject: z.string() }),
  score: z.number().int().nullable().describe("the rating given through this link, null before one"),
  comment: z.string().describe("the comment given with it, empty when none"),
  rated_at: z.string().nullable(),
  expires_at: z.string().describe("the link answers 404 after this time (30 days after the solve)"),
});

export const CsatRateBody = z
  .object({
    score: z.number().int().min(1).max(5),
    comment: z.string().max(CSAT_COMMENT_MAX).optional(),
  })
  .strict();

export const CsatTokenParams = z.object({ token: z.string().max(200) });
