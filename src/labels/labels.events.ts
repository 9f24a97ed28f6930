import { z } from "zod";
import { defineEvent } from "../events/define";
import { TagGroupSchema, TagSchema } from "./labels.schemas";

/** Labels are read with any credential of the workspace, like GET /v1/tags. */
const labels = { readScope: null } as const;

export const tagCreated = defineEvent("tag.created", z.object({ tag: TagSchema }), {
  ...labels,
  description: "A label was created (also when a ticket or contact names a new one).",
});
export const tagUpdated = defineEvent("tag.updated", z.object({ tag: TagSchema }), {
  ...labels,
  description: "A label changed (name, colour, group, position).",
});
export const tagDeleted = defineEvent("tag.deleted", z.object({ tag_id: z.string() }), {
  ...labels,
  description: "A label was deleted.",
});
export const tagMerged = defineEvent("tag.merged", z.object({ tag_id: z.string(), into: z.string() }), {
  ...labels,
  description: "A label was merged into another; records that carried it change without their own events.",
});
export const tagGroupCreated = defineEvent("tag_group.created", z.object({ tag_group: TagGroupSchema }), {
  ...labels,
  description: "A label group was created.",
});
export const tagGroupUpdated = defineEvent("tag_group.updated", z.object({ tag_group: TagGroupSchema }), {
  ...labels,
  description: "A label group changed.",
});
export const tagGroupDeleted = defineEvent("tag_group.deleted", z.object({ tag_group_id: z.string() }), {
  ...labels,
  description: "A label group was deleted.",
});

export const labelEvents = [
  tagCreated,
  tagUpdated,
  tagDeleted,
  tagMerged,
  tagGroupCreated,
  tagGroupUpdated,
  tagGroupDeleted,
] as const;
