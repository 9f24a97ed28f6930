import type { ContactTicketCounts } from "../contacts/contacts.public";
import { jsonList, preparedFor } from "../db/prepared";

/** Live tickets per contact; workspace_id first so tickets_ws_contact_idx answers it. */
const COUNT =
  "SELECT contact_id AS contactId, count(*) AS n FROM tickets WHERE workspace_id = +? AND deleted_at IS NULL";

const statements = preparedFor((sqlite) => ({
  countOne: sqlite.query<{ contactId: string; n: number }, [string, string]>(
    `${COUNT} AND contact_id = +? GROUP BY contact_id`,
  ),
  countMany: sqlite.query<{ contactId: string; n: number }, [string, string]>(
    `${COUNT} AND contact_id IN (SELECT value FROM json_each(+?)) GROUP BY contact_id`,
  ),
}));

/** Each page of presented contacts counts its tickets in one statement. */
export const liveTicketCountsOfContacts: ContactTicketCounts = async (db, workspaceId, ids) => {
  const s = statements(db);
  return ids.length === 1 ? s.countOne.all(workspaceId, ids[0]!) : s.countMany.all(workspaceId, jsonList(ids));
};
