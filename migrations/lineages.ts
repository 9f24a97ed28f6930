import type { Lineages } from "../src/db/engine";
import { migrations } from "./index";
import { postgresMigrations } from "./postgres/index";

/** Both lineages, embedded in the executable: each engine applies its own (src/db/engine.ts). */
export const lineages: Lineages = { sqlite: migrations, postgres: postgresMigrations };
