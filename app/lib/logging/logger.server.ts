import pino, { type DestinationStream, type Logger } from "pino";
import { config } from "../config/env.server";

/**
 * Every place a secret can sit in what we log: access and refresh tokens, the API secret,
 * Authorization and access-token headers, alert channels' webhook URLs. Censored, not removed, so
 * a reader sees that something was there.
 */
export const REDACTED_PATHS = [
  "accessToken",
  "*.accessToken",
  "refreshToken",
  "*.refreshToken",
  "apiSecretKey",
  "*.apiSecretKey",
  "secret",
  "*.secret",
  "headers.authorization",
  "*.headers.authorization",
  'headers["x-shopify-access-token"]',
  '*.headers["x-shopify-access-token"]',
  "webhookUrl",
  "*.webhookUrl",
  "slackUrl",
  "*.slackUrl",
];

/** JSON lines on stdout (or `destination`), at LOG_LEVEL (default info). */
export function createLogger(destination?: DestinationStream): Logger {
  return pino(
    {
      level: config().LOG_LEVEL,
      messageKey: "message",
      base: { service: "refund-verifier", pid: process.pid },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

export const logger = createLogger();

/** The command line's logger: warnings and errors on stderr, so the progress on stdout stays readable. */
export const cliLogger = () => createLogger(pino.destination(2)).child({}, { level: "warn" });
