import pino, { type Logger } from "pino";

export type { Logger };

/** Anything that could hold a credential is redacted, wherever it appears in a log object. */
const REDACT = [
  "password",
  "*.password",
  "smtp_password",
  "*.smtp_password",
  "secret",
  "*.secret",
  "token",
  "*.token",
  "access_token",
  "*.access_token",
  "refresh_token",
  "*.refresh_token",
  "mfa_token",
  "*.mfa_token",
  "code",
  "*.code",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "headers.cookie",
  "cookie",
  "*.cookie",
  "key",
  "*.key",
  "api_key",
  "*.api_key",
  "pass",
  "*.pass",
  "auth.pass",
  "*.auth.pass",
];

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: REDACT, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
