import { integer, text } from "drizzle-orm/sqlite-core";

/** Column helpers so every table stores ids, times, flags and JSON the same way. */
export const id = () => text("id").primaryKey();
export const workspaceId = () => text("workspace_id").notNull();
/** ISO 8601 UTC text: sorts correctly and reads back exactly as the API answers it. */
export const timestamp = (name: string) => text(name);
export const createdAt = () => text("created_at").notNull();
export const updatedAt = () => text("updated_at").notNull();
export const flag = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);
export const json = <T>(name: string) => text(name, { mode: "json" }).$type<T>();
