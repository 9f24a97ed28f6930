/** The SQL engines Desk runs on (DECISIONS.md "Past one machine"). */
export type DatabaseEngine = "sqlite" | "postgres";

/** A `postgres://` (or `postgresql://`) URL: DESK_DATABASE_URL's one accepted form. */
export const isPostgresUrl = (url: string | undefined): boolean => /^postgres(ql)?:\/\//i.test(url ?? "");

/**
 * The engine this process runs on, read once from the environment before any module builds its
 * tables: each `*.table.ts` exports this engine's build of its definition (src/db/schema-kit.ts
 * `deskTable`), so one process runs one engine. PostgreSQL when DESK_DATABASE_URL names one, else
 * the embedded SQLite file. Opening a database of another engine than this is refused (src/db/engine.ts).
 */
export const processEngine: DatabaseEngine = isPostgresUrl(process.env.DESK_DATABASE_URL) ? "postgres" : "sqlite";
