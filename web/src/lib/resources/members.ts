// A role change alters what /v1/me answers, hence `["me"]` (the session's key, lib/api/session.ts).
import type { Member } from "../api/types";
import { listQuery } from "../api/queries";
import { defineResource } from "../realtime/invalidation";

export const membersKeys = { list: ["members"] as const };

export const membersResource = defineResource({
  name: "members",
  keys: membersKeys,
  events: [{ on: ["member.*"], invalidate: () => [membersKeys.list, ["me"]] }],
});

export const useMembers = listQuery<Member>(membersKeys.list, "/members");
