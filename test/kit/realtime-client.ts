/** A real WebSocket client for tests and benchmarks: collects frames, waits for them, reports the close. */
export type TestSocket = {
  ws: WebSocket;
  frames: Array<Record<string, unknown>>;
  opened: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  waitFor(match: (frame: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  send(frame: unknown): void;
};

export function connect(url: string): TestSocket {
  const ws = new WebSocket(url);
  const frames: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  ws.addEventListener("message", (event) => {
    frames.push(JSON.parse(String(event.data)) as Record<string, unknown>);
    for (const wake of waiters.splice(0)) wake();
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error("socket error")), { once: true });
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.addEventListener("close", (event) => {
      resolve({ code: event.code, reason: event.reason });
      for (const wake of waiters.splice(0)) wake();
    });
  });
  return {
    ws,
    frames,
    opened,
    closed,
    send: (frame) => ws.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    async waitFor(match, ms = 2000) {
      const end = Date.now() + ms;
      for (;;) {
        const found = frames.find(match);
        if (found) return found;
        if (Date.now() > end || ws.readyState === WebSocket.CLOSED)
          throw new Error(`frame not received; got ${JSON.stringify(frames.map((f) => f.type))}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 25);
        });
      }
    },
  };
}
