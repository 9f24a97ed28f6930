import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A real HTTP endpoint on 127.0.0.1 that checks deliveries exactly as SPEC.md tells integrators:
 * read the raw body, split DESK-Signature on commas, recompute HMAC-SHA256 of "<t>.<body>",
 * compare in constant time, reject a t more than 5 minutes from its clock. Each path
 * (`/<name>`) has its own signing secret and answer. Used by tests and bench/webhooks.ts.
 */
export type ReceivedDelivery = {
  path: string;
  eventId: string;
  eventType: string;
  verified: boolean;
  status: number;
  body: string;
  headers: Headers;
};
export type Answer = { status: number; body?: string; delayMs?: number; headers?: Record<string, string> };

export function verifyDeskSignature(
  secret: string,
  header: string | null,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  if (!header) return false;
  const fields = new Map(
    header.split(",").map((part) => {
      const at = part.indexOf("=");
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = Number(fields.get("t"));
  const v1 = fields.get("v1") ?? "";
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex"));
  const given = Buffer.from(v1);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function startReceiver(options: { now?: () => Date; quiet?: boolean } = {}) {
  const now = options.now ?? (() => new Date());
  const secrets = new Map<string, string>();
  const answers = new Map<string, (delivery: ReceivedDelivery) => Answer>();
  const received: ReceivedDelivery[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname.slice(1);
      const body = await request.text();
      const secret = secrets.get(path);
      const verified =
        secret !== undefined &&
        verifyDeskSignature(secret, request.headers.get("desk-signature"), body, Math.floor(now().getTime() / 1000));
      const delivery: ReceivedDelivery = {
        path,
        eventId: request.headers.get("desk-event-id") ?? "",
        eventType: request.headers.get("desk-event-type") ?? "",
        verified,
        status: 0,
        body: options.quiet ? "" : body,
        headers: request.headers,
      };
      const answer = verified
        ? (answers.get(path)?.(delivery) ?? { status: 200, body: "ok" })
        : { status: 401, body: "bad signature" };
      if (answer.delayMs) await Bun.sleep(answer.delayMs);
      delivery.status = answer.status;
      received.push(delivery);
      return new Response(answer.body ?? "", { status: answer.status, headers: answer.headers });
    },
  });
  return {
    url: (path: string) => `http://127.0.0.1:${server.port}/${path}`,
    port: server.port,
    secrets,
    answers,
    received,
    /** Deliveries to `path` acknowledged with a 2xx, per event id. */
    acknowledgedCounts(path: string) {
      const counts = new Map<string, number>();
      for (const d of received)
        if (d.path === path && d.status >= 200 && d.status < 300)
          counts.set(d.eventId, (counts.get(d.eventId) ?? 0) + 1);
      return counts;
    },
    stop: () => server.stop(true),
  };
}
