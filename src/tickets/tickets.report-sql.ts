import { getTableName, sql, type SQL } from "drizzle-orm";
import { tickets } from "./tickets.table";

const bare = (name: string): SQL => sql.raw(name);

/**
 * The tickets table and the columns reports aggregate, as bare SQL names read from the table
 * definition. Reports compose them into their aggregates, which then read exactly as when the
 * names were written out (the measured query plans hold), and a renamed column is renamed here.
 */
export const reportTicketsSql = {
  table: bare(getTableName(tickets)),
  createdAt: bare(tickets.createdAt.name),
  solvedAt: bare(tickets.solvedAt.name),
  firstRespondedAt: bare(tickets.firstRespondedAt.name),
  status: bare(tickets.status.name),
  channel: bare(tickets.channel.name),
  severity: bare(tickets.severity.name),
  assigneeId: bare(tickets.assigneeId.name),
  csat: bare(tickets.csat.name),
  sla: bare(tickets.sla.name),
};
