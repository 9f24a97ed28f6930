import type { Member } from "../api/types";
import { listQuery } from "../api/queries";
import { sessionKeys } from "../api/session";
import { defineResource } from "../realtime/invalidation";

export const membersKeys = { list: ["members"] as const };

// A role change alters what /v1/me answers, hence the session's key.
export const membersResource = defineResource({
  name: "members",
  keys: membersKeys,
  events: [{ on: ["member.*"], invalidate: () => [membersKeys.list, sessionKeys.me] }],
});

export const useMembers = listQuery<Member>(membersKeys.list, "/members");
