import type { Server } from "node:http";
import Provider from "oidc-provider";

/** `email_verified` may be a string to play a provider (or a claim mapper) that sends "true" as text. */
export type OidcAccount = { email?: string; email_verified?: boolean | string; name?: string; picture?: string };

export type TestOidcProvider = {
  issuer: string;
  accounts: Map<string, OidcAccount>;
  /**
   * Drives the provider's own login and consent pages like a browser (cookies, redirects) for
   * `accountId`, from the authorization URL Desk redirected to; answers the redirect back to Desk.
   */
  authorize(authorizationUrl: string, accountId: string, options?: { deny?: boolean }): Promise<URL>;
  stop(): Promise<void>;
};

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/** The issuer URL a provider will have once started on a free port (Desk needs it in its env first). */
export async function reserveIssuer(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package, its development login pages) on
 * loopback, with one confidential client whose redirect URIs are Desk's callbacks.
 */
export async function startOidcProvider(input: {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  accounts?: Record<string, OidcAccount>;
}): Promise<TestOidcProvider> {
  const accounts = new Map(Object.entries(input.accounts ?? {}));
  const provider = new Provider(input.issuer, {
    clients: [
      {
        client_id: input.clientId,
        client_secret: input.clientSecret,
        redirect_uris: input.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    async findAccount(_ctx, id) {
      const claims = accounts.get(id);
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
  });
  const server: Server = provider.listen(Number(new URL(input.issuer).port));
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once("listening", () => resolve())));

  const jar = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const step = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(url, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: cookie(), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: form ? new URLSearchParams(form) : undefined,
    });
    remember(response);
    await response.arrayBuffer();
    return response;
  };

  return {
    issuer: input.issuer,
    accounts,
    async authorize(authorizationUrl, accountId, options = {}) {
      jar.clear();
      let url = authorizationUrl;
      for (let hops = 0; hops < 12; hops++) {
        const target = new URL(url, input.issuer);
        if (target.origin !== input.issuer) return target; // back to Desk
        let response = await step(target.toString());
        const interaction = target.pathname.match(/^\/interaction\/([^/]+)$/);
        if (interaction && response.status === 200) {
          const page = await (await fetch(target, { headers: { cookie: cookie() } })).text();
          const prompt = page.includes('name="prompt" value="login"') ? "login" : "consent";
          response = options.deny
            ? await step(`${target}/abort`)
            : await step(
                target.toString(),
                prompt === "login" ? { prompt, login: accountId, password: "x" } : { prompt },
              );
        }
        const location = response.headers.get("location");
        if (!location) throw new Error(`the provider stopped at ${target} with ${response.status}`);
        url = location;
      }
      throw new Error("too many redirects at the provider");
    },
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
