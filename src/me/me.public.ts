/** What other features may use of me: the caller's own answer, for routes that change the person. */
export { describeCaller } from "./me.service";
export { MeSchema } from "./me.schemas";
