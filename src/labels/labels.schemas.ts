import { z } from "zod";
import { LABEL_COLORS } from "./labels.rules";
import { LABEL_KINDS } from "./labels.table";

export const LabelColorSchema = z.enum(LABEL_COLORS);
export const LabelKindSchema = z.enum(LABEL_KINDS);
const Position = z.number().int().min(0).max(1_000_000);

export const TagRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: LabelColorSchema,
  group_id: z.string().nullable(),
});

export const TagSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: LabelColorSchema,
  description: z.string(),
  group_id: z.string().nullable(),
  position: z.number(),
  archived: z.boolean(),
  applies_to: z.array(LabelKindSchema),
  usage: z.object({ tickets: z.number(), contacts: z.number(), companies: z.number() }),
  created_at: z.string(),
  updated_at: z.string(),
});

export const TagGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: LabelColorSchema.nullable(),
  exclusive: z.boolean(),
  position: z.number(),
  tag_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

const tagFields = {
  name: z.string().max(200),
  color: LabelColorSchema,
  description: z.string().max(300),
  group_id: z.string().max(100).nullable(),
  applies_to: z.array(LabelKindSchema).min(1).max(3),
  position: Position,
};
export const CreateTagBody = z.strictObject({
  ...tagFields,
  group_id: tagFields.group_id.optional(),
  color: tagFields.color.optional(),
  description: tagFields.description.optional(),
  applies_to: tagFields.applies_to.optional(),
  position: tagFields.position.optional(),
});
export const UpdateTagBody = z.strictObject({ ...tagFields, archived: z.boolean() }).partial();
export const MergeTagBody = z.strictObject({ into: z.string().min(1).max(100) });
export const ReorderBody = z.strictObject({ ids: z.array(z.string().max(100)).max(1000) });

export const TagListQuery = z.strictObject({
  q: z.string().max(100).optional(),
  group_id: z.string().max(100).optional(),
  archived: z.enum(["true", "false", "any"]).default("any"),
  applies_to: LabelKindSchema.optional(),
});

const GroupName = z.string().trim().min(1).max(50);
export const CreateTagGroupBody = z.strictObject({
  name: GroupName,
  color: LabelColorSchema.nullable().optional(),
  exclusive: z.boolean().optional(),
  position: Position.optional(),
});
export const UpdateTagGroupBody = CreateTagGroupBody.partial();
