/**
 * The PostgreSQL builds of widget-answers.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./widget-answers.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { widgetCapNoticesTable, widgetHandoffMailsTable, widgetHandoffsTable } from "./widget-answers.definition";

export const widgetCapNotices = pgTable("widget_cap_notices", widgetCapNoticesTable);
export const widgetHandoffs = pgTable("widget_handoffs", widgetHandoffsTable);
export const widgetHandoffMails = pgTable("widget_handoff_mails", widgetHandoffMailsTable);
