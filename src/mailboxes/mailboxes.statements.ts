import { inArray, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteDrizzleOf, sqliteOf } from "../db/sqlite/prepared";
import { first } from "../db/store";
import type { MailboxRow } from "./mailboxes.present";
import { mailboxesTable } from "./mailboxes.definition";
import { mailboxes } from "./mailboxes.table";

/**
 * The mailbox look-ups of mail doors (SMTP, HTTP, IMAP) and of sending, compiled once per
 * connection: they run several times per received message, where building a drizzle query costs
 * more than running it. The SQL is portable; the PostgreSQL twin runs it with `$n` parameters
 * (without SQLite's `+?`, which only steers its planner).
 */
export interface MailboxStatements {
  /** The mailbox whose own or forwarding address is `address` or `base`. */
  byAddress(address: string, base: string): Promise<MailboxRow | undefined>;
  /** The status of that same mailbox alone. */
  statusByAddress(address: string, base: string): Promise<string | undefined>;
  /** Whether `email` is one of this workspace's own mailbox addresses. */
  isOwnAddress(workspaceId: string, email: string): Promise<boolean>;
  /** Whether this workspace has a mailbox with this id. */
  existsInWorkspace(workspaceId: string, mailboxId: string): Promise<boolean>;
}

/** Raw SQL takes its column names from the table definition. */
const c = {
  id: mailboxes.id.name,
  workspaceId: mailboxes.workspaceId.name,
  email: mailboxes.email.name,
  forwardingAddress: mailboxes.forwardingAddress.name,
  status: mailboxes.status.name,
};

const STATUS_BY_ADDRESS = `SELECT ${c.status} AS status FROM mailboxes WHERE ${c.email} IN (?, ?) OR ${c.forwardingAddress} IN (?, ?)`;
const OWN_ADDRESS = `SELECT ${c.id} AS id FROM mailboxes WHERE ${c.workspaceId} = +? AND ${c.email} = +?`;
const IN_WORKSPACE = `SELECT ${c.id} FROM mailboxes WHERE ${c.id} = +? AND ${c.workspaceId} = +?`;

export const mailboxStatements = dialectStatements<MailboxStatements>({
  sqlite: (db: Queryable) => {
    const sqlite = sqliteOf(db);
    const mailboxes = mailboxesTable.sqlite;
    const byAddress = sqliteDrizzleOf(db)
      .select()
      .from(mailboxes)
      .where(
        or(
          inArray(mailboxes.email, [sql.placeholder("address"), sql.placeholder("base")]),
          inArray(mailboxes.forwardingAddress, [sql.placeholder("address"), sql.placeholder("base")]),
        ),
      )
      .prepare();
    // The same rows as the builder would give, read without its per-row mapping.
    const statusByAddress = sqlite.query<{ status: string }, [string, string, string, string]>(STATUS_BY_ADDRESS);
    const ownAddress = sqlite.query<{ id: string }, [string, string]>(OWN_ADDRESS);
    const inWorkspace = sqlite.query<{ id: string }, [string, string]>(IN_WORKSPACE);
    return {
      byAddress: async (address, base) => byAddress.get({ address, base }),
      statusByAddress: async (address, base) => statusByAddress.get(address, base, address, base)?.status,
      isOwnAddress: async (workspaceId, email) => ownAddress.get(workspaceId, email) !== null,
      existsInWorkspace: async (workspaceId, mailboxId) => inWorkspace.get(mailboxId, workspaceId) !== null,
    };
  },
  postgres: (db: Queryable) => {
    const statusByAddress = postgresQuery<{ status: string }, [string, string, string, string]>(db, STATUS_BY_ADDRESS);
    const ownAddress = postgresQuery<{ id: string }, [string, string]>(db, OWN_ADDRESS);
    const inWorkspace = postgresQuery<{ id: string }, [string, string]>(db, IN_WORKSPACE);
    return {
      // The whole row through the builder, which maps its columns (jsonb config, boolean flags).
      byAddress: async (address, base) =>
        first(
          await db
            .select()
            .from(mailboxes)
            .where(or(inArray(mailboxes.email, [address, base]), inArray(mailboxes.forwardingAddress, [address, base])))
            .limit(1),
        ),
      statusByAddress: async (address, base) => (await statusByAddress.get(address, base, address, base))?.status,
      isOwnAddress: async (workspaceId, email) => (await ownAddress.get(workspaceId, email)) !== null,
      existsInWorkspace: async (workspaceId, mailboxId) => (await inWorkspace.get(mailboxId, workspaceId)) !== null,
    };
  },
});
