/**
 * A read pool worker (src/db/read-pool.ts): a read-only connection answering the named reads of
 * src/reads.ts. Loads only those features' read paths, never the HTTP app or the job runner.
 */
import { openDatabase } from "./db/engine";
import { serveReads } from "./db/read-pool";
import { reads } from "./reads";
import { createRuntime } from "./db/runtime";

declare const self: Worker;

serveReads(self, reads, (path) => openDatabase(path, createRuntime(), { readonly: true }));
