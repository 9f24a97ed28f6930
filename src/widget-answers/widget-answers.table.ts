import { sqliteTable } from "../db/schema-kit";
import { widgetCapNoticesTable, widgetHandoffMailsTable, widgetHandoffsTable } from "./widget-answers.definition";

/** The SQLite builds of widget-answers.definition.ts: what every query, type and migration uses. */
export const widgetCapNotices = sqliteTable("widget_cap_notices", widgetCapNoticesTable);
export const widgetHandoffs = sqliteTable("widget_handoffs", widgetHandoffsTable);
export const widgetHandoffMails = sqliteTable("widget_handoff_mails", widgetHandoffMailsTable);
