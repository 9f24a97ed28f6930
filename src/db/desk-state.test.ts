import { expect, test } from "bun:test";
import { createRuntime } from "./runtime";
import { openDatabase } from "./engine";
import { deskState } from "./desk-state";

test("each desk's runtime holds its own state, made once on first use", () => {
  let made = 0;
  const listOf = deskState("test.list", () => {
    made++;
    return [] as string[];
  });
  const one = openDatabase(":memory:", createRuntime());
  const two = openDatabase(":memory:", createRuntime());
  listOf(one).push("a");
  expect(listOf(one)).toEqual(["a"]);
  expect(listOf(two)).toEqual([]);
  expect(made).toBe(2);
  expect(one.$runtime.states).not.toBe(two.$runtime.states);
  one.$client.close();
  two.$client.close();
});
