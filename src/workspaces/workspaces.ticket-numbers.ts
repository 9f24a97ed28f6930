import { preparedFor } from "../db/prepared";
import type { TakeTicketNumber } from "../tickets/tickets.public";

const statements = preparedFor((sqlite) => ({
  nextNumber: sqlite.query<{ n: number }, [string]>(
    "UPDATE workspaces SET ticket_number_seq = ticket_number_seq + 1 WHERE id = +? RETURNING ticket_number_seq AS n",
  ),
}));

/** Each workspace's ticket numbers count on its row; tickets take the next one on every creation. */
export const takeTicketNumber: TakeTicketNumber = async (db, workspaceId) =>
  statements(db).nextNumber.get(workspaceId)?.n;
