import { expect, test } from "bun:test";
import { renderEnumValues } from "./gen-web-types";

const DOCUMENT = {
  components: {
    schemas: {
      Scope: { type: "string", enum: ["tickets:read", "realtime"] },
      Ticket: {
        type: "object",
        properties: {
          id: { type: "string" },
          status: { type: "string", enum: ["open", "closed"] },
          severity: { anyOf: [{ type: "string", enum: ["sev1", "sev2"] }, { type: "null" }] },
          fields: { type: "array", items: { type: "string", enum: ["priority", "team"] } },
          number: { type: "integer", enum: [1, 2] },
        },
      },
      Note: { type: "object", properties: { body: { type: "string" } } },
    },
  },
};

test("the web types list each string enum of the components as a const value, nullable and list ones included", () => {
  expect(renderEnumValues(DOCUMENT)).toBe(`/** Each string enum of the components, in the schema's order. */
export const enumValues = {
    Scope: ["tickets:read", "realtime"],
    Ticket: {
        status: ["open", "closed"],
        severity: ["sev1", "sev2"],
        fields: ["priority", "team"],
    },
} as const;
`);
});
