import { DeskError } from "../lib/errors";

/**
 * Shape limits for every JSON body, checked before any route schema sees it. Validators and the
 * code after them recurse over input: a body 100,000 levels deep made building zod's error cost
 * seconds and then overflow the stack, stalling the whole process. These bounds sit far above
 * anything a route accepts, so only hostile input meets them.
 */
export const JSON_LIMITS = {
  /** Arrays and objects inside each other. */
  depth: 32,
  /** Object keys in the whole body. */
  keys: 10_000,
  /** Values (of any kind) in the whole body. */
  values: 100_000,
  /** Characters in one string; the largest field any route takes (a message's HTML) is 1,000,000. */
  stringLength: 1_000_000,
  /** Characters in one object key. */
  keyLength: 1_000,
};

type Found = { location: string[]; message: string };

/**
 * Walks a parsed JSON body once and throws 422 `validation_failed` at the first value past a
 * limit, or at a string holding a NUL character (no stored text may contain one: mail headers,
 * SQLite's C strings and browsers all cut or mangle it). The walk stops descending at the depth
 * limit, so its own recursion is bounded too.
 */
export function checkJsonBounds(body: unknown): void {
  const path: string[] = [];
  let keys = 0;
  let values = 0;

  function walk(value: unknown, depth: number): Found | null {
    if (++values > JSON_LIMITS.values)
      return { location: [...path], message: `the body holds more than ${JSON_LIMITS.values} values` };
    if (typeof value === "string") return checkString(value, JSON_LIMITS.stringLength);
    if (typeof value !== "object" || value === null) return null;
    if (depth >= JSON_LIMITS.depth)
      return { location: [...path], message: `nested more than ${JSON_LIMITS.depth} levels deep` };
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(String(i));
        const found = walk(value[i], depth + 1);
        if (found) return found;
        path.pop();
      }
      return null;
    }
    for (const key in value) {
      path.push(key);
      if (++keys > JSON_LIMITS.keys)
        return { location: [...path], message: `the body holds more than ${JSON_LIMITS.keys} keys` };
      const badKey = checkString(key, JSON_LIMITS.keyLength, "key");
      if (badKey) return badKey;
      const found = walk((value as Record<string, unknown>)[key], depth + 1);
      if (found) return found;
      path.pop();
    }
    return null;
  }

  function checkString(text: string, max: number, what = "text"): Found | null {
    if (text.length > max) return { location: [...path], message: `${what} longer than ${max} characters` };
    if (text.includes("\0")) return { location: [...path], message: `${what} must not contain NUL characters` };
    return null;
  }

  const found = walk(body, 0);
  if (!found) return;
  // A location names the value past the limit; keep it short even when the path is long.
  const location = ["body", ...found.location.slice(0, JSON_LIMITS.depth + 1)].join(".").slice(0, 500);
  throw new DeskError(422, "validation_failed", "The request is invalid.", [{ location, message: found.message }]);
}
