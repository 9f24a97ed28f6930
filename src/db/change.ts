import { AsyncLocalStorage } from "node:async_hooks";
import type { Frame, Tx } from "./database";

/**
 * The change whose body is running, as seen from the code it awaits (AsyncLocalStorage follows
 * awaits; measured on Bun at ~10 ns a body and nothing per await), so a nested call finds it, and
 * on PostgreSQL a query made on the database from inside the body runs in its transaction.
 */
export const activeChange = new AsyncLocalStorage<Frame>();

/** Each transaction handle knows its change, so code given a `tx` needs no ambient lookup. */
export const FRAME = Symbol("desk.frame");
export type FramedTx = Tx & { [FRAME]?: Frame };

export const stillPendingError = () =>
  new Error("a transaction body was still pending when its turn ended: await only the store inside transact");
