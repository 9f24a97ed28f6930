import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { DeskError, notFound, unauthorized } from "../lib/errors";
import { ErrorBody } from "../http/schemas";
import { safeEqual } from "../lib/crypto";
import { ingestEmail, mailboxForRecipient } from "./inbound.service";

const InboundQuery = z.object({ to: z.string().trim().min(3).max(320) });

/** The raw inbound door: a relay or a script posts RFC 822 bytes with the shared secret. */
export function inboundRoutes(deps: Deps) {
  return new Elysia({ prefix: "/inbound", tags: ["inbound"] }).post(
    "/email",
    async ({ request, query, set }) => {
      const secret = request.headers.get("desk-inbound-secret") ?? "";
      if (!safeEqual(secret, deps.config.inboundSecret)) throw unauthorized("Missing or wrong DESK-Inbound-Secret.");
      const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "message/rfc822")
        throw new DeskError(415, "unsupported_media_type", "Send the raw message as message/rfc822.");
      const mailbox = await mailboxForRecipient(deps.db, query.to);
      if (!mailbox || mailbox.status === "disabled") throw notFound("Mailbox");
      const raw = new Uint8Array(await request.arrayBuffer());
      if (raw.byteLength === 0)
        throw new DeskError(422, "validation_failed", "The message is empty.", [
          { location: "body", message: "The message is empty." },
        ]);
      const result = await ingestEmail(deps, { raw, mailbox, recipient: query.to });
      set.status = 202;
      return result.outcome === "created" || result.outcome === "appended"
        ? { status: result.outcome, ticket_id: result.ticketId, message_id: result.messageId }
        : { status: result.outcome };
    },
    {
      parse: "none",
      query: InboundQuery,
      response: {
        202: z.object({ status: z.string(), ticket_id: z.string().optional(), message_id: z.string().optional() }),
        401: ErrorBody,
        404: ErrorBody,
        422: ErrorBody,
      },
      detail: {
        summary: "Ingest a raw RFC 822 message for a recipient (header DESK-Inbound-Secret)",
        security: [{ inboundSecret: [] }],
        requestBody: {
          required: true,
          content: { "message/rfc822": { schema: { type: "string", format: "binary" } } },
        },
        responses: { 413: { description: "Over 40 MiB" }, 415: { description: "Not message/rfc822" } },
      },
    },
  );
}
