import type { Tag, TagGroup } from "../api/types";
import { listQuery } from "../api/queries";
import { defineResource } from "../realtime/invalidation";

export const labelsKeys = { tags: ["tags"] as const, tagGroups: ["tag-groups"] as const };

export const labelsResource = defineResource({
  name: "labels",
  keys: labelsKeys,
  events: [
    { on: ["tag.*"], invalidate: () => [labelsKeys.tags] },
    { on: ["tag_group.*"], invalidate: () => [labelsKeys.tagGroups] },
  ],
});

export const useTags = listQuery<Tag>(labelsKeys.tags, "/tags");
export const useTagGroups = listQuery<TagGroup>(labelsKeys.tagGroups, "/tag-groups");
