import { randomBytes } from "node:crypto";
import { uuidv7 } from "uuidv7";

/** Record ids are UUID v7 so they sort by creation time. */
export const newId = (): string => uuidv7();

/** A random token of `bytes` bytes, base64url (no padding). */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString("base64url");

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_RE.test(value);
