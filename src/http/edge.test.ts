import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";

const desk = await startTestDesk();

/** Writes raw bytes to the served port and collects whatever comes back until the server goes quiet. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = "";
    let quiet: Timer | undefined;
    const finish = () => {
      clearTimeout(quiet);
      clearTimeout(limit);
      resolve(answer);
    };
    const limit = setTimeout(() => {
      socket.then((s) => s.end());
      finish();
    }, 1500);
    const socket = Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(s) {
          s.write(request);
        },
        data(s, chunk) {
          answer += new TextDecoder().decode(chunk);
          clearTimeout(quiet);
          // Keep-alive connections stay open: stop once the answer has stopped arriving.
          quiet = setTimeout(() => {
            s.end();
            finish();
          }, 150);
        },
        close: finish,
        error: finish,
      },
    });
  });
}

/** A small deterministic generator, so a failure names a case that runs again the same way. */
function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const METHODS = ["GET", "POST", "CONNECT", "OPTIONS", "TRACE", "PATCH", "BREW", "get", "G\x01T", "M".repeat(300), ""];
const TARGETS = [
  "/",
  "*",
  "example.com:443",
  "[::1]:443",
  "[::1",
  "http://x:99999/",
  "http://[zz]/v1/me",
  "/%zz",
  "/v1/%00",
  "/v1/tickets/%ff%fe",
  "/v1/../../../etc/passwd",
  "//v1//me",
  "/v1/me?%",
  `/${"a".repeat(9000)}`,
  "/\x7f",
  "/v1/auth/login",
  "",
];
const VERSIONS = ["HTTP/1.1", "HTTP/1.0", "HTTP/9.9", "HTTP/1.1 extra", ""];
const HEADERS = [
  "Host: a^b",
  "Host: a b",
  "Host: [zz]",
  "Host: [::1",
  "Host:",
  "Host: a:99999",
  "Host: x\r\nHost: y",
  "Content-Length: -1",
  "Content-Length: abc",
  "Content-Length: 5\r\nContent-Length: 7",
  "Transfer-Encoding: chunked",
  "Transfer-Encoding: gzip, chunked",
  "Expect: 100-continue",
  "Content-Type: application/json; charset=\x01",
  "Content-Type: multipart/form-data; boundary=",
  "X-Request-Id: \x7f\x7f",
  "Idempotency-Key: \xff",
  "Upgrade: websocket\r\nConnection: Upgrade",
  "Authorization: Bearer \x00",
  "DESK-Workspace: ../../x",
  `X-Long: ${"b".repeat(20_000)}`,
  "Bad Header Name: x",
  ": empty-name",
  "NoColon",
];
const BODIES = ["", "{", '{"a":1}', "0\r\n\r\n", "zz\r\nxx\r\n", "\x00\x01\x02"];

function cases(): string[] {
  const fixed = [
    "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
    "CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: a^b\r\n\r\n",
    "GET /v1/me HTTP/1.1\r\nHost: a b\r\n\r\n",
    "POST /v1/auth/login HTTP/1.1\r\nHost: a^b\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
  ];
  const random = seeded(11);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const generated = Array.from({ length: 120 }, () => {
    const headers = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(HEADERS));
    if (random() < 0.7) headers.unshift("Host: 127.0.0.1");
    // Mostly well-formed methods and versions, so most cases get past Bun's parser into Desk's handler.
    const method = random() < 0.75 ? pick(METHODS.slice(0, 6)) : pick(METHODS);
    const version = random() < 0.8 ? "HTTP/1.1" : pick(VERSIONS);
    return `${method} ${pick(TARGETS)} ${version}\r\n${headers.join("\r\n")}\r\nConnection: close\r\n\r\n${pick(BODIES)}`;
  });
  return [...fixed, ...generated];
}

const LEAKS = [
  /<!doctype/i,
  /__bunfallback/,
  /node_modules/,
  /\.ts:\d+/,
  /\n\s+at /,
  /\/work\//,
  new RegExp(import.meta.dir.replaceAll("/", "\\/")),
];

describe("the HTTP edge under malformed request lines and headers", () => {
  test("every answer is empty or SPEC.md's error body, never a stack or a path, and the server stays healthy", async () => {
    const port = desk.server.port!;
    const all = cases();
    for (let i = 0; i < all.length; i += 16) {
      const batch = all.slice(i, i + 16);
      const answers = await Promise.all(batch.map((request) => rawExchange(port, request)));
      answers.forEach((answer, j) => {
        const request = JSON.stringify(batch[j]!.slice(0, 200));
        for (const leak of LEAKS)
          if (leak.test(answer)) throw new Error(`case ${request} leaked ${leak}: ${answer.slice(0, 300)}`);
        if (!answer) return;
        expect(answer).toMatch(/^HTTP\/1\.[01] \d{3} /);
        const status = Number(answer.slice(9, 12));
        // Only the first answer counts: Bun may add its own bare 400 for bytes left after it.
        const separator = answer.indexOf("\r\n\r\n");
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(answer.slice(0, separator))?.[1] ?? 0);
        const body = separator >= 0 ? answer.slice(separator + 4, separator + 4 + length) : "";
        if (status >= 400 && body) {
          expect({ case: request, body: JSON.parse(body) }).toEqual({
            case: request,
            body: { status, code: expect.any(String), detail: expect.any(String) },
          });
        }
      });
      const health = await fetch(`${desk.url}/healthz`);
      expect(health.status).toBe(200);
    }
  }, 60_000);

  test("a request line that makes no URL answers 400 in the error shape", async () => {
    const answer = await rawExchange(
      desk.server.port!,
      "CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\nConnection: close\r\n\r\n",
    );
    expect(answer).toStartWith("HTTP/1.1 400 ");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      status: 400,
      code: "malformed_request",
      detail: expect.any(String),
    });
  });
});
