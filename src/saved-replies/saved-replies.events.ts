import { z } from "zod";
import { defineEvent } from "../events/define";
import { SavedReplySchema } from "./saved-replies.schemas";

const options = { readScope: "tickets:read" } as const;

export const savedReplyCreated = defineEvent("saved_reply.created", z.object({ saved_reply: SavedReplySchema }), {
  ...options,
  description: "A saved reply was created.",
});
export const savedReplyUpdated = defineEvent("saved_reply.updated", z.object({ saved_reply: SavedReplySchema }), {
  ...options,
  description: "A saved reply changed.",
});
export const savedReplyDeleted = defineEvent("saved_reply.deleted", z.object({ saved_reply_id: z.string() }), {
  ...options,
  description: "A saved reply was deleted.",
});
export const savedReplyEvents = [savedReplyCreated, savedReplyUpdated, savedReplyDeleted] as const;
