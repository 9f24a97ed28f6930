/**
 * A listener whose port another process holds. Desk refuses to start rather than share it: two
 * desks answering one port, each from its own data dir, would split a team's work without a word.
 */
export class PortTakenError extends Error {
  constructor(listener: string, host: string, port: number) {
    super(
      `the ${listener} port ${host.includes(":") ? `[${host}]` : host}:${port} is already in use (another Desk or another server listens there); stop it or choose another port`,
    );
    this.name = "PortTakenError";
  }
}

/** Bun.serve and node:net say "in use" differently; both mean the address is taken. */
export function isAddressInUse(error: unknown): boolean {
  if (typeof error === "object" && error && "code" in error && error.code === "EADDRINUSE") return true;
  return error instanceof Error && /EADDRINUSE|address already in use|Is port \d+ in use/i.test(error.message);
}
