import { z } from "zod";
import { defineEvent } from "../events/define";
import { MemberSchema } from "./members.schemas";

const options = { readScope: "settings:read" } as const;

export const memberAdded = defineEvent("member.added", z.object({ member: MemberSchema }), {
  ...options,
  description: "A person joined the workspace; also sent to their user topic.",
});
export const memberUpdated = defineEvent("member.updated", z.object({ member: MemberSchema }), {
  ...options,
  description: "A member's role, picture, availability or assignment cap changed; also sent to their user topic.",
});
export const memberRemoved = defineEvent("member.removed", z.object({ user_id: z.string() }), {
  ...options,
  description: "A person left or was removed from the workspace; also sent to their user topic.",
});
export const memberEvents = [memberAdded, memberUpdated, memberRemoved] as const;
