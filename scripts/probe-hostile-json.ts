/**
 * Hostile-JSON probe: sends a burst of ~200 KB bodies nested 100,000 levels deep (to the sign-in
 * route, and to PATCH a ticket's `custom` when a token is given) while polling /healthz, then prints
 * each answer's status and how long /healthz took during the burst. A healthy Desk answers every
 * hostile request 422 at once and keeps /healthz fast.
 *
 *   bun scripts/probe-hostile-json.ts http://127.0.0.1:8080 [--token <API key with tickets:write>] [--count 8]
 *
 * With a token the probe creates one ticket to PATCH. Exits non-zero when a hostile request is not
 * answered 422.
 */

export const HOSTILE_DEPTH = 100_000;

/** `{"email":[[[…]]],"password":"x"}`: about 200 KB, nested HOSTILE_DEPTH levels. */
export const deepLoginBody = () => `{"email":${"[".repeat(HOSTILE_DEPTH)}${"]".repeat(HOSTILE_DEPTH)},"password":"x"}`;
/** `{"custom":{"a":{"a":…}}}` nested HOSTILE_DEPTH levels (objects, about 600 KB). */
export const deepCustomBody = () => `{"custom":${'{"a":'.repeat(HOSTILE_DEPTH)}1${"}".repeat(HOSTILE_DEPTH)}}`;

export type ProbeResult = {
  /** Status and finish time (ms since the burst started) of each hostile request. */
  hostile: { route: string; status: number; doneAtMs: number }[];
  /** Round-trip time of each /healthz request issued while the burst was in flight. */
  healthzMs: number[];
};

/**
 * Fires `count` hostile requests at once (alternating sign-in and ticket PATCH when `ticketPath` and
 * `headers` are given) and, while they are in flight, /healthz one after another.
 */
export async function probeHostileJson(options: {
  url: string;
  count?: number;
  ticketPath?: string;
  headers?: Record<string, string>;
}): Promise<ProbeResult> {
  const count = options.count ?? 8;
  const login = deepLoginBody();
  const custom = deepCustomBody();
  const started = performance.now();
  let inFlight = count;
  const hostile = Array.from({ length: count }, async (_, i) => {
    const patch = options.ticketPath && i % 2 === 1;
    const route = patch ? `PATCH ${options.ticketPath}` : "POST /v1/auth/login";
    try {
      const res = await fetch(options.url + (patch ? options.ticketPath : "/v1/auth/login"), {
        method: patch ? "PATCH" : "POST",
        headers: { ...(patch ? options.headers : {}), "content-type": "application/json" },
        body: patch ? custom : login,
      });
      await res.arrayBuffer();
      return { route, status: res.status, doneAtMs: performance.now() - started };
    } finally {
      inFlight--;
    }
  });
  const healthzMs: number[] = [];
  const polling = (async () => {
    // Give the burst a moment to reach the server, then ask for /healthz until every hostile request is answered.
    await Bun.sleep(5);
    do {
      const t = performance.now();
      await fetch(`${options.url}/healthz`).then((r) => r.arrayBuffer());
      healthzMs.push(performance.now() - t);
    } while (inFlight > 0);
  })();
  const results = await Promise.all(hostile);
  await polling;
  return { hostile: results, healthzMs };
}

async function main(argv: string[]): Promise<number> {
  const url = argv.find((a) => a.startsWith("http"));
  if (!url) {
    console.error("usage: bun scripts/probe-hostile-json.ts <base url> [--token <API key>] [--count N]");
    return 2;
  }
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const token = flag("--token");
  let ticketPath: string | undefined;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (token) {
    const res = await fetch(`${url}/v1/tickets`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ subject: "hostile JSON probe", contact: { email: "probe@example.test" } }),
    });
    const ticket = (await res.json()) as { id?: string };
    if (!ticket.id) {
      console.error(`could not create a ticket to PATCH: ${res.status}`);
      return 1;
    }
    ticketPath = `/v1/tickets/${ticket.id}`;
  }
  const result = await probeHostileJson({ url, count: Number(flag("--count") ?? 8), ticketPath, headers });
  for (const h of result.hostile) console.log(`${h.route}: ${h.status} after ${Math.round(h.doneAtMs)} ms`);
  const worst = Math.max(...result.healthzMs);
  console.log(`/healthz during the burst: ${result.healthzMs.length} requests, slowest ${Math.round(worst)} ms`);
  return result.hostile.every((h) => h.status === 422) ? 0 : 1;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
