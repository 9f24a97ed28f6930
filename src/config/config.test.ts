import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { freePort } from "../../test/peers/dovecot";
import { listenerBaseUrl, loadConfig } from "./config";

const dataDir = mkdtempSync(join(tmpdir(), "desk-config-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("SMTP receiver limits from the environment", () => {
  test("defaults follow RFC 5321's server timeouts", () => {
    expect(loadConfig({ DESK_DATA_DIR: dataDir }).smtpLimits).toEqual({
      maxConnections: 100,
      maxConnectionsPerAddress: 10,
      idleMs: 60_000,
      commandPhaseMs: 300_000,
      dataPhaseMs: 600_000,
    });
  });

  test("variables set caps and durations; a bad duration is refused at start", () => {
    const config = loadConfig({
      DESK_DATA_DIR: dataDir,
      DESK_SMTP_MAX_CONNECTIONS: "20",
      DESK_SMTP_MAX_CONNECTIONS_PER_ADDRESS: "2",
      DESK_SMTP_IDLE_TIMEOUT: "30s",
      DESK_SMTP_COMMAND_TIMEOUT: "2m",
      DESK_SMTP_DATA_TIMEOUT: "500ms",
    });
    expect(config.smtpLimits).toEqual({
      maxConnections: 20,
      maxConnectionsPerAddress: 2,
      idleMs: 30_000,
      commandPhaseMs: 120_000,
      dataPhaseMs: 500,
    });
    expect(() => loadConfig({ DESK_DATA_DIR: dataDir, DESK_SMTP_DATA_TIMEOUT: "soon" })).toThrow(
      /DESK_SMTP_DATA_TIMEOUT/,
    );
    expect(() => loadConfig({ DESK_DATA_DIR: dataDir, DESK_SMTP_MAX_CONNECTIONS: "0" })).toThrow(
      /DESK_SMTP_MAX_CONNECTIONS/,
    );
  });
});

describe("the SMTP receiver's address", () => {
  test("follows DESK_HOST unless DESK_SMTP_HOST names its own, so port 25 can face the internet alone", async () => {
    expect(loadConfig({ DESK_DATA_DIR: dataDir, DESK_HOST: "127.0.0.1" }).smtpHost).toBe("127.0.0.1");
    const config = loadConfig({ DESK_DATA_DIR: dataDir, DESK_HOST: "127.0.0.1", DESK_SMTP_HOST: "127.0.0.2" });
    expect(config.host).toBe("127.0.0.1");
    expect(config.smtpHost).toBe("127.0.0.2");
    // The receiver really listens there, and only there.
    const port = await freePort();
    const desk = await startTestDesk({ env: { DESK_SMTP_HOST: "127.0.0.2", DESK_SMTP_PORT: String(port) } });
    const banner = (hostname: string) =>
      new Promise<string>((resolve) => {
        Bun.connect({
          hostname,
          port,
          socket: {
            data: (socket, data) => {
              resolve(data.toString());
              socket.end();
            },
            connectError: () => resolve("refused"),
            error: () => resolve("refused"),
          },
        }).catch(() => resolve("refused"));
      });
    expect(await banner("127.0.0.2")).toStartWith("220 ");
    expect(await banner("127.0.0.1")).toBe("refused");
    await desk.stop();
  });
});

describe("the default base URL comes from the listener", () => {
  test("listenerBaseUrl: loopback and wildcard hosts are reached as localhost, others as they are", () => {
    expect(listenerBaseUrl("127.0.0.1", 9090)).toBe("http://localhost:9090");
    expect(listenerBaseUrl("0.0.0.0", 80)).toBe("http://localhost:80");
    expect(listenerBaseUrl("::", 3000)).toBe("http://localhost:3000");
    expect(listenerBaseUrl("10.1.2.3", 3000)).toBe("http://10.1.2.3:3000");
    expect(listenerBaseUrl("fd00::5", 3000)).toBe("http://[fd00::5]:3000");
    expect(loadConfig({ DESK_DATA_DIR: dataDir, DESK_PORT: "9191" })).toMatchObject({
      baseUrl: "http://localhost:9191",
      baseUrlFromListener: true,
    });
    expect(
      loadConfig({ DESK_DATA_DIR: dataDir, DESK_PORT: "9191", DESK_BASE_URL: "https://desk.example.com/" }),
    ).toMatchObject({
      baseUrl: "https://desk.example.com",
      baseUrlFromListener: false,
    });
  });

  test("without DESK_BASE_URL, invitation links and the realtime URL name the port actually bound", async () => {
    const desk = await startTestDesk();
    const { owner } = await createWorkspaceWithOwner(desk);
    const port = desk.server.port;
    expect(port).not.toBe(8080);
    const invitation = await desk.api("POST", "/v1/invitations", {
      headers: owner.headers,
      body: { email: "new@team.test", role: "agent" },
    });
    expect(invitation.status).toBe(201);
    expect(invitation.body.url).toStartWith(`http://localhost:${port}/invite/`);
    const realtime = await desk.api("POST", "/v1/realtime/token", { headers: owner.headers });
    expect(realtime.body.url).toStartWith(`ws://localhost:${port}/v1/realtime?token=`);
  });

  test("an explicit DESK_BASE_URL is kept", async () => {
    const desk = await startTestDesk({ env: { DESK_BASE_URL: "https://help.example.com" } });
    const { owner } = await createWorkspaceWithOwner(desk);
    const invitation = await desk.api("POST", "/v1/invitations", {
      headers: owner.headers,
      body: { email: "new@team.test", role: "agent" },
    });
    expect(invitation.body.url).toStartWith("https://help.example.com/invite/");
  });
});

describe("scheduled backups from the environment", () => {
  test("daily into <data dir>/backups keeping 7 by default; off, other intervals and folders when set", () => {
    expect(loadConfig({ DESK_DATA_DIR: dataDir }).backup).toEqual({
      intervalMs: 86_400_000,
      keep: 7,
      dir: join(dataDir, "backups"),
    });
    expect(loadConfig({ DESK_DATA_DIR: dataDir, DESK_BACKUP_INTERVAL: "off" }).backup.intervalMs).toBeNull();
    expect(
      loadConfig({
        DESK_DATA_DIR: dataDir,
        DESK_BACKUP_INTERVAL: "12h",
        DESK_BACKUP_KEEP: "30",
        DESK_BACKUP_DIR: "/srv/b",
      }).backup,
    ).toEqual({ intervalMs: 43_200_000, keep: 30, dir: "/srv/b" });
  });

  test("an interval under an hour or a keep of 0 is refused at start, naming the variable", () => {
    expect(() => loadConfig({ DESK_DATA_DIR: dataDir, DESK_BACKUP_INTERVAL: "30m" })).toThrow(/DESK_BACKUP_INTERVAL/);
    expect(() => loadConfig({ DESK_DATA_DIR: dataDir, DESK_BACKUP_INTERVAL: "soon" })).toThrow(/DESK_BACKUP_INTERVAL/);
    expect(() => loadConfig({ DESK_DATA_DIR: dataDir, DESK_BACKUP_KEEP: "0" })).toThrow(/DESK_BACKUP_KEEP/);
  });
});

describe("the network edge's limits from the environment", () => {
  test("GET /metrics: open on a loopback listener, a token kept in the data dir on any other; DESK_METRICS_TOKEN wins", () => {
    for (const host of ["127.0.0.1", "::1", "localhost"])
      expect(loadConfig({ DESK_DATA_DIR: dataDir, DESK_HOST: host }).metricsToken).toBeNull();
    const exposed = loadConfig({ DESK_DATA_DIR: dataDir, DESK_HOST: "0.0.0.0" }).metricsToken;
    expect(exposed?.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, "metrics-token.key"), "utf8").trim()).toBe(exposed!);
    expect(statSync(join(dataDir, "metrics-token.key")).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DESK_DATA_DIR: dataDir, DESK_HOST: "192.0.2.10" }).metricsToken).toBe(exposed);
    const explicit = "an-explicit-metrics-token-0123";
    expect(loadConfig({ DESK_DATA_DIR: dataDir, DESK_HOST: "::", DESK_METRICS_TOKEN: explicit }).metricsToken).toBe(
      explicit,
    );
  });

  test("socket caps default as documented; a cap below 1 is refused at start", () => {
    expect(loadConfig({ DESK_DATA_DIR: dataDir }).realtimeLimits).toEqual({
      maxSockets: null,
      fdReserve: 512,
      perSession: 20,
      widgetPerToken: 10,
      widgetPerVisitor: 10,
      widgetPerAddress: 20,
    });
    expect(loadConfig({ DESK_DATA_DIR: dataDir, DESK_REALTIME_MAX_SOCKETS: "300" }).realtimeLimits.maxSockets).toBe(
      300,
    );
    expect(() => loadConfig({ DESK_DATA_DIR: dataDir, DESK_WIDGET_SOCKETS_PER_TOKEN: "0" })).toThrow(
      /DESK_WIDGET_SOCKETS_PER_TOKEN/,
    );
  });
});
