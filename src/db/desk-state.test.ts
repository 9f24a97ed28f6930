import { expect, test } from "bun:test";
import { openTestDatabase } from "../../test/kit/database";
import { deskState } from "./desk-state";

test("each desk's runtime holds its own state, made once on first use", async () => {
  let made = 0;
  const listOf = deskState("test.list", () => {
    made++;
    return [] as string[];
  });
  const { db: one } = await openTestDatabase();
  const { db: two } = await openTestDatabase();
  listOf(one).push("a");
  expect(listOf(one)).toEqual(["a"]);
  expect(listOf(two)).toEqual([]);
  expect(made).toBe(2);
  expect(one.$runtime.states).not.toBe(two.$runtime.states);
});
