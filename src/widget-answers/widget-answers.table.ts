import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, workspaceId } from "../db/columns";

/** The months whose widget cap was reached and announced (`ai_cap_reached` goes out once per month). */
export const widgetCapNotices = sqliteTable(
  "widget_cap_notices",
  {
    workspaceId: workspaceId(),
    /** UTC calendar month, `YYYY-MM`. */
    month: text("month").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.month] })],
);
