import { expect, test } from "bun:test";
import { unaryPlusParameters } from "./open";

test("comparison, limit and offset parameters get a unary plus; columns and numbered parameters do not", () => {
  expect(unaryPlusParameters('select "a" from "t" where ("t"."w" = ? and "t"."e" <> ?) limit ? offset ?')).toBe(
    'select "a" from "t" where ("t"."w" = +? and "t"."e" <> +?) limit +? offset +?',
  );
  expect(unaryPlusParameters("SELECT a FROM t WHERE b >= ? ORDER BY a LIMIT ?")).toBe(
    "SELECT a FROM t WHERE b >= +? ORDER BY a LIMIT +?",
  );
  expect(unaryPlusParameters("SELECT a FROM t WHERE b = ?1 LIMIT ?2")).toBe("SELECT a FROM t WHERE b = ?1 LIMIT ?2");
  expect(unaryPlusParameters("SELECT unlimited, a FROM t WHERE a IN (?, ?)")).toBe(
    "SELECT unlimited, a FROM t WHERE a IN (?, ?)",
  );
});
