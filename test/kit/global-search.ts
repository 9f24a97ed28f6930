import { sql } from "drizzle-orm";
import { defineRead } from "../../src/db/read-pool";
import { searchEverythingRead } from "../../src/global-search/global-search.service";

/**
 * The search read as a worker answers it, except that `q: "spin"` first runs a real statement that
 * keeps SQLite busy for seconds (the broad query of a large workspace, without building one).
 * A desk given `readModules` loads it in its read workers in place of the real one.
 * @public the workers find it among this module's exports; nothing imports it by name.
 */
export const slowSearchRead = defineRead(
  searchEverythingRead.name,
  async (db, params: Parameters<typeof searchEverythingRead.run>[1]) => {
    if (params.q === "spin")
      db.all(
        sql`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000000) SELECT count(*) FROM c`,
      );
    return searchEverythingRead.run(db, params);
  },
);

export const readModules = [import.meta.url];
