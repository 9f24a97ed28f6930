import type { TakeTicketNumber } from "../tickets/tickets.public";
import { workspaceStatements } from "./workspaces.statements";

/** Each workspace's ticket numbers count on its row; tickets take the next one on every creation. */
export const takeTicketNumber: TakeTicketNumber = (db, workspaceId) =>
  workspaceStatements(db).nextTicketNumber(workspaceId);
