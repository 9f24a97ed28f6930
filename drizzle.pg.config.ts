import { defineConfig } from "drizzle-kit";

// PostgreSQL's lineage (migrations/postgres): the tables' PostgreSQL builds, `*.table.pg.ts`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/**/*.table.pg.ts",
  out: "./migrations/postgres",
  breakpoints: true,
});
