/** What the read pool's workers load of global search (src/reads.ts): the search as a named read. */
export { searchEverythingRead } from "./global-search.service";
