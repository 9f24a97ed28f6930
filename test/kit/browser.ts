import type { ApiResult, TestDesk } from "../harness";

/** A minimal browser cookie jar for tests: keeps what Set-Cookie says, forgets on Max-Age=0. */
export class TestBrowser {
  readonly jar = new Map<string, string>();
  constructor(
    private readonly desk: TestDesk,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  absorb(result: ApiResult): ApiResult {
    for (const line of result.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";").map((s) => s.trim());
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (attrs.some((a) => a.toLowerCase() === "max-age=0") || !value) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return result;
  }

  async post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult> {
    const cookie = this.cookieHeader();
    const all: Record<string, string> = { origin: "http://localhost", ...this.extraHeaders, ...headers };
    if (cookie) all.cookie = cookie;
    return this.absorb(await this.desk.api("POST", path, { headers: all, body: body ?? {} }));
  }

  refreshCookies(): string[] {
    return [...this.jar.keys()].filter((n) => n.startsWith("desk_rt_") || n === "desk_refresh");
  }
}

/** Headers of a native app request: DESK-Client and no Origin. */
export const NATIVE = { "desk-client": "ios/2.4.1" };
