import { deskTable } from "../db/schema-kit";
import { widgetCapNoticesTable, widgetHandoffMailsTable, widgetHandoffsTable } from "./widget-answers.definition";

/** The builds of widget-answers.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const widgetCapNotices = deskTable("widget_cap_notices", widgetCapNoticesTable);
export const widgetHandoffs = deskTable("widget_handoffs", widgetHandoffsTable);
export const widgetHandoffMails = deskTable("widget_handoff_mails", widgetHandoffMailsTable);
