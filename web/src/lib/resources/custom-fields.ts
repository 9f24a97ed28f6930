import type { CustomField, FieldEntity } from "../api/types";
import { listQuery } from "../api/queries";
import { defineResource } from "../realtime/invalidation";

export const customFieldsKeys = { list: ["custom-fields"] as const };

export const customFieldsResource = defineResource({
  name: "custom-fields",
  keys: customFieldsKeys,
  events: [{ on: ["custom_field.*"], invalidate: () => [customFieldsKeys.list] }],
});

const useAllFields = listQuery<CustomField>(customFieldsKeys.list, "/custom-fields");

export function useCustomFields(entity: FieldEntity) {
  const query = useAllFields();
  return { ...query, data: query.data?.filter((f) => f.entity === entity && !f.archived) };
}
