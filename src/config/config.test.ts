import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./config";

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
    expect(config.smtpLimits).toEqual({ maxConnections: 20, maxConnectionsPerAddress: 2, idleMs: 30_000, commandPhaseMs: 120_000, dataPhaseMs: 500 });
    expect(() => loadConfig({ DESK_DATA_DIR: dataDir, DESK_SMTP_DATA_TIMEOUT: "soon" })).toThrow(/DESK_SMTP_DATA_TIMEOUT/);
    expect(() => loadConfig({ DESK_DATA_DIR: dataDir, DESK_SMTP_MAX_CONNECTIONS: "0" })).toThrow(/DESK_SMTP_MAX_CONNECTIONS/);
  });
});
