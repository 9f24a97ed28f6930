import { SQL } from "bun";
import { createHash, randomUUID } from "node:crypto";
import { lineages } from "../../migrations/lineages";
import { processEngine } from "../../src/config/engine";
import { migratePostgres } from "../../src/db/postgres/migrate";

/**
 * Test databases on PostgreSQL, when the test process runs on it (DESK_DATABASE_URL names a server's
 * database the tests may create databases from, `postgres://user@host:port/postgres`): each desk
 * gets a database of its own, copied from a template migrated once per version of the lineage
 * (CREATE DATABASE … TEMPLATE takes milliseconds; migrating takes a second).
 */
export const onPostgres = processEngine === "postgres";

const serverUrl = () => {
  const url = process.env.DESK_DATABASE_URL;
  if (!url) throw new Error("DESK_DATABASE_URL is not set");
  return url;
};

const withDatabase = (url: string, name: string): string => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

const lineageHash = createHash("sha256")
  .update(lineages.postgres.map((m) => `${m.tag}\n${m.covers.join(",")}\n${m.sql}`).join("\n\0"))
  .digest("hex")
  .slice(0, 12);
const TEMPLATE = `desk_template_${lineageHash}`;

let admin: SQL | undefined;
let template: Promise<void> | undefined;

const adminClient = () => (admin ??= new SQL(serverUrl(), { max: 2 }));

/** The migrated template, made once per lineage by whichever test process gets the lock first. */
async function ensureTemplate(): Promise<void> {
  const sql = adminClient();
  await sql.begin(async (tx) => {
    // Several test processes may start at once: one makes the template, the others wait and find it.
    await tx`SELECT pg_advisory_xact_lock(${0x74706c}::bigint)`;
    const found = await tx`SELECT 1 FROM pg_database WHERE datname = ${TEMPLATE}`;
    if (found.length > 0) return;
    const building = `${TEMPLATE}_building_${process.pid}`;
    await sql.unsafe(`DROP DATABASE IF EXISTS "${building}"`);
    await sql.unsafe(`CREATE DATABASE "${building}"`);
    const client = new SQL(withDatabase(serverUrl(), building), { max: 1 });
    try {
      await migratePostgres(client, lineages.postgres);
    } finally {
      await client.close();
    }
    await sql.unsafe(`ALTER DATABASE "${building}" RENAME TO "${TEMPLATE}"`);
  });
}

/** A fresh, migrated database for one desk, and how to drop it. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  template ??= ensureTemplate();
  await template;
  return await newDatabase(`TEMPLATE "${TEMPLATE}"`);
}

/** A new database with nothing in it (for the migrations' own tests), and how to drop it. */
export const emptyPostgresDatabase = () => newDatabase("");

async function newDatabase(options: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `desk_test_${randomUUID().replaceAll("-", "")}`;
  await adminClient().unsafe(`CREATE DATABASE "${name}" ${options}`);
  return {
    url: withDatabase(serverUrl(), name),
    drop: async () => {
      await adminClient().unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
