import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../app/lib/logging/logger.server";
import { reloadConfig } from "../../../app/lib/config/env.server";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split("\n"));
      done();
    },
  });
  return { logger: createLogger(stream), lines: () => lines.map((line) => JSON.parse(line)) };
}

describe("the app's logger", () => {
  it("writes JSON lines with a level name and the message", () => {
    const { logger, lines } = capture();
    logger.child({ shop: "a.myshopify.com" }).info({ refund: "gid://shopify/Refund/1" }, "verdict");
    expect(lines()[0]).toMatchObject({
      level: "info",
      message: "verdict",
      shop: "a.myshopify.com",
      refund: "gid://shopify/Refund/1",
      service: "refund-verifier",
    });
  });

  it("censors tokens, secrets, authorization headers and alert webhook URLs wherever they sit", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        accessToken: "shpat_abc",
        session: { accessToken: "shpat_def", refreshToken: "shprt_x" },
        request: { headers: { authorization: "Bearer eyJ", "x-shopify-access-token": "shpat_ghi" } },
        slack: { webhookUrl: "https://hooks.slack.com/services/T/B/X" },
      },
      "request",
    );
    const text = JSON.stringify(lines()[0]);
    for (const secret of ["shpat_abc", "shpat_def", "shprt_x", "eyJ", "shpat_ghi", "hooks.slack.com"]) expect(text).not.toContain(secret);
    expect(lines()[0].session.accessToken).toBe("[redacted]");
  });

  it("honours LOG_LEVEL", () => {
    process.env.LOG_LEVEL = "warn";
    reloadConfig();
    try {
      const { logger, lines } = capture();
      logger.info("not shown");
      logger.warn("shown");
      expect(lines().map((l) => l.message)).toEqual(["shown"]);
    } finally {
      delete process.env.LOG_LEVEL;
      reloadConfig();
    }
  });
});
