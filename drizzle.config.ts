import { defineConfig } from "drizzle-kit";

// Every feature keeps its tables in its own `*.table.ts`; the glob collects them all.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/**/*.table.ts",
  out: "./migrations",
  breakpoints: true,
});
