import type { Config } from "../config/config";
import { closeDatabase, migrateDatabase, openDatabase } from "../db/engine";
import { createRuntime } from "../db/runtime";
import { untilCommitted } from "../db/tx";
import { systemClock } from "../lib/clock";
import { lineages } from "../../migrations/lineages";
import { issueOperatorReset } from "./password-resets.service";

export const USER_USAGE =
  "reset-password <email>   print a one-time password reset link (valid one hour) for that person";

/**
 * `desk user reset-password <email>` for the operator: prints a one-time reset link rather than
 * setting a password, so no password passes through the terminal, its scrollback or a chat; the
 * person picks their own. Works beside a running server (SQLite WAL; the busy timeout covers the
 * server's commits). Answers the exit code.
 */
export async function runUserCommand(
  config: Config,
  args: string[],
  out: Pick<Console, "log" | "error"> = console,
): Promise<number> {
  const [action, email, ...rest] = args;
  if (action !== "reset-password" || !email || rest.length) {
    out.error(`usage: desk user ${USER_USAGE}`);
    return 2;
  }
  const db = openDatabase(config.databaseUrl ?? config.databasePath, createRuntime());
  try {
    await migrateDatabase(db, lineages);
    const issued = await issueOperatorReset({ db, clock: systemClock, config }, email);
    await untilCommitted(db);
    if (!issued) {
      out.error(`no user with the email ${email.trim().toLowerCase()}`);
      return 1;
    }
    out.log(issued.url);
    out.error(
      `One-time link, valid until ${issued.expiresAt}. Opening it lets the person choose a new password; doing so signs them out everywhere.`,
    );
    return 0;
  } finally {
    await closeDatabase(db);
  }
}
