import { z } from "zod";
import { defineEvent } from "../events/define";
import { ImportSchema } from "./imports.schemas";

const options = { readScope: "settings:read" } as const;

export const importCreated = defineEvent("import.created", z.object({ import: ImportSchema }), {
  ...options,
  description: "An import of another help desk's history was started.",
});
export const importUpdated = defineEvent("import.updated", z.object({ import: ImportSchema }), {
  ...options,
  description: "An import moved on (a page committed), finished, failed or was canceled.",
});
export const importEvents = [importCreated, importUpdated] as const;
