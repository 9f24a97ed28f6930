import type { SavedReply } from "../api/types";
import { listQuery } from "../api/queries";
import { defineResource } from "../realtime/invalidation";

export const savedRepliesKeys = { list: ["saved-replies"] as const };

export const savedRepliesResource = defineResource({
  name: "saved-replies",
  keys: savedRepliesKeys,
  events: [{ on: ["saved_reply.*"], invalidate: () => [savedRepliesKeys.list] }],
});

export const useSavedReplies = listQuery<SavedReply>(savedRepliesKeys.list, "/saved-replies");
