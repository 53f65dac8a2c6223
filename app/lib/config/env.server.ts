import { z } from "zod";

/**
 * The app's whole configuration: the environment, parsed once, at start, by one schema. A value
 * that is missing (where required) or malformed stops the start with a sentence naming it, instead
 * of surfacing later as a NaN timer or an unreadable secret. Nothing else in app/ reads
 * process.env. README's "Configuration" table lists every variable.
 */

export class ConfigError extends Error {
  override name = "ConfigError";
}

const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];

const milliseconds = (fallback: number, min = 1) =>
  z.coerce
    .number({ invalid_type_error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(min, `must be at least ${min}`)
    .default(fallback);

const count = (fallback: number, min = 1) => z.coerce.number().int("must be a whole number").min(min, `must be at least ${min}`).default(fallback);

/** 32 bytes as 64 hex characters or base64 (`openssl rand -hex 32`). */
const secretKey = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
    if (key.length !== 32) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be 32 bytes: 64 hex characters or 44 base64 characters (openssl rand -hex 32)" });
      return z.NEVER;
    }
    return key;
  });

const url = z.string().trim().url("must be a URL");
/** Demo and tests only: an override honoured for this machine's own addresses, so a misconfigured production server cannot send tokens elsewhere. */
const loopbackUrl = url.refine((value) => LOOPBACK_HOSTS.includes(new URL(value).hostname), "must be a loopback address (127.0.0.1, localhost or [::1])");

const schema = z
  .object({
    NODE_ENV: z.enum(["production", "development", "test"]).default("development"),
    DATABASE_URL: z
      .string()
      .default("file:./prisma/dev.sqlite")
      .refine((value) => /^(file:|postgres(ql)?:\/\/)/.test(value), "must start with file: (SQLite) or postgresql:// (PostgreSQL)"),
    /**
     * Connections one process keeps to PostgreSQL at most (each app process, each `npm run worker`). The worker decides up to
     * 16 shops at once, each on one connection for its verdict's transaction; fewer makes them take turns.
     */
    DATABASE_POOL_MAX: count(20),
    SHOPIFY_API_KEY: z.string().default(""),
    SHOPIFY_API_SECRET: z.string().default(""),
    SHOPIFY_APP_URL: url.optional(),
    SCOPES: z.string().default("read_orders,write_orders"),
    /** Seals the shops' access and refresh tokens at rest (AES-256-GCM). */
    SESSION_SECRET_KEY: secretKey.optional(),
    /** The key before the last rotation: tokens sealed with it are still opened, and sealed again with the new one. */
    SESSION_SECRET_KEY_PREVIOUS: secretKey.optional(),
    /** Seals the merchants' Slack URLs at rest. */
    ALERTS_SECRET_KEY: secretKey.optional(),
    SMTP_URL: z
      .string()
      .trim()
      .regex(/^smtps?:\/\//, "must be smtp://… or smtps://…")
      .optional(),
    ALERTS_FROM: z.string().default("Refund Verifier <alerts@refund-verifier.invalid>"),
    ALERT_QUIET_MS: milliseconds(30_000, 0),
    ALERT_MAX_WAIT_MS: milliseconds(120_000, 0),
    LOG_LEVEL: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
    VERIFIER_WORKER: z.enum(["on", "off"]).default("on"),
    VERIFIER_SWEEP_INTERVAL_MS: milliseconds(900_000),
    VERIFIER_FIRST_SWEEP_LOOKBACK_MS: milliseconds(86_400_000),
    VERIFIER_LEASE_MS: milliseconds(30_000),
    VERIFIER_REQUEST_TIMEOUT_MS: milliseconds(10_000),
    BACKFILL_POLL_MS: milliseconds(10_000),
    INTAKE_COMMIT_WINDOW_MS: milliseconds(0, 0),
    PORT: count(3000),
    HOST: z.string().optional(),
    WEB_CONCURRENCY: count(1),
    /** Node's HTTP server: a request's headers must arrive within, and the whole request within (slow clients are cut off). */
    HTTP_HEADERS_TIMEOUT_MS: milliseconds(20_000),
    HTTP_REQUEST_TIMEOUT_MS: milliseconds(30_000),
    SHOPIFY_ADMIN_API_ORIGIN: loopbackUrl.optional(),
    SLACK_WEBHOOK_ORIGIN: loopbackUrl.optional(),
    SIMULATED_ADMIN_ORIGIN: loopbackUrl.optional(),
    APP_BRIDGE_URL: url.optional(),
  })
  .superRefine((config, ctx) => {
    if (config.NODE_ENV !== "production") return;
    // Without these a production server would run unauthenticated, or keep tokens in plaintext.
    for (const name of ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "SESSION_SECRET_KEY"] as const) {
      if (!config[name]) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: "is required in production" });
    }
    if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["HTTP_HEADERS_TIMEOUT_MS"], message: "must not be longer than HTTP_REQUEST_TIMEOUT_MS" });
  });

export type Config = z.output<typeof schema>;

/** Parses an environment; throws a ConfigError naming every variable that is wrong, and why. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty value is an unset one (a `FOO=` line in a shell or a .env file).
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== "")));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
  throw new ConfigError(`The app's configuration is not usable: ${problems.join("; ")}. See README, "Configuration".`);
}

let parsed: Config | undefined;

/**
 * This process's configuration, parsed on first use: the server's entry asks for it as it loads,
 * so a bad value stops the start. (Not at import: the tests set the environment before they start
 * the app, after importing modules that use it.)
 */
export function config(): Config {
  parsed ??= parseConfig(process.env);
  return parsed;
}

/** Reads the environment again on next use: for a test that changed it (production sets it once, before start). */
export function reloadConfig(): void {
  parsed = undefined;
}
