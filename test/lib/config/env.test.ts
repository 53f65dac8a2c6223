import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../../app/lib/config/env.server";

const PRODUCTION = {
  NODE_ENV: "production",
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
  SHOPIFY_APP_URL: "https://verifier.example",
  SESSION_SECRET_KEY: "cd".repeat(32),
};

describe("the app's configuration", () => {
  it("takes defaults for what is unset, and an empty value as unset", () => {
    const config = parseConfig({ ALERTS_SECRET_KEY: "", VERIFIER_LEASE_MS: "" });
    expect(config).toMatchObject({ NODE_ENV: "development", DATABASE_URL: "file:./prisma/dev.sqlite", VERIFIER_LEASE_MS: 30_000, WEB_CONCURRENCY: 1 });
    expect(config.ALERTS_SECRET_KEY).toBeUndefined();
  });

  it("reads a secret key as 64 hex characters or base64, and names the variable of a bad one", () => {
    expect(parseConfig({ ALERTS_SECRET_KEY: "ab".repeat(32) }).ALERTS_SECRET_KEY).toEqual(Buffer.alloc(32, 0xab));
    expect(parseConfig({ SESSION_SECRET_KEY: Buffer.alloc(32, 1).toString("base64") }).SESSION_SECRET_KEY).toEqual(Buffer.alloc(32, 1));
    expect(() => parseConfig({ ALERTS_SECRET_KEY: "short" })).toThrow(/ALERTS_SECRET_KEY must be 32 bytes/);
  });

  it("stops on a malformed number or address, naming each variable and why", () => {
    const attempt = () => parseConfig({ VERIFIER_LEASE_MS: "soon", PORT: "-1", DATABASE_URL: "mysql://x", SMTP_URL: "mail.example" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/VERIFIER_LEASE_MS must be a number of milliseconds/);
    expect(attempt).toThrow(/PORT must be at least 1/);
    expect(attempt).toThrow(/DATABASE_URL must start with file: \(SQLite\) or postgresql:\/\//);
    expect(attempt).toThrow(/SMTP_URL must be smtp/);
  });

  it("bounds a process's PostgreSQL connections: 20 unless set, and never none", () => {
    expect(parseConfig({}).DATABASE_POOL_MAX).toBe(20);
    expect(parseConfig({ DATABASE_POOL_MAX: "8" }).DATABASE_POOL_MAX).toBe(8);
    expect(() => parseConfig({ DATABASE_POOL_MAX: "0" })).toThrow(/DATABASE_POOL_MAX must be at least 1/);
  });

  it("honours the demo's and tests' overrides for this machine's own addresses only", () => {
    expect(parseConfig({ SHOPIFY_ADMIN_API_ORIGIN: "http://127.0.0.1:4000" }).SHOPIFY_ADMIN_API_ORIGIN).toBe("http://127.0.0.1:4000");
    expect(() => parseConfig({ SHOPIFY_ADMIN_API_ORIGIN: "https://attacker.example" })).toThrow(/SHOPIFY_ADMIN_API_ORIGIN must be a loopback address/);
    expect(() => parseConfig({ SLACK_WEBHOOK_ORIGIN: "http://10.0.0.1" })).toThrow(/SLACK_WEBHOOK_ORIGIN must be a loopback address/);
  });

  it("in production, requires the app's credentials, its URL and the key that seals tokens", () => {
    expect(parseConfig(PRODUCTION).SESSION_SECRET_KEY).toEqual(Buffer.alloc(32, 0xcd));
    const { SESSION_SECRET_KEY: _, SHOPIFY_APP_URL: __, ...missing } = PRODUCTION;
    expect(() => parseConfig(missing)).toThrow(/SHOPIFY_APP_URL is required in production; SESSION_SECRET_KEY is required in production/);
  });
});
