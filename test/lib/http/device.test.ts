import { describe, expect, it } from "vitest";
import { narrowScreenLikely } from "../../../app/lib/http/device";

const ask = (headers: Record<string, string>) => narrowScreenLikely(new Headers(headers));

describe("a phone, as the first render guesses it", () => {
  it("Chromium's mobile hint decides where it is sent", () => {
    expect(ask({ "sec-ch-ua-mobile": "?1", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36" })).toBe(true);
    expect(ask({ "sec-ch-ua-mobile": "?0", "user-agent": "Mozilla/5.0 (Linux; Android 11) Chrome/131.0.0.0 Mobile Safari/537.36" })).toBe(false);
  });

  it("else the user agent: phones (Shopify's mobile app included) are narrow, tablets and desktops wide", () => {
    expect(
      ask({
        "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Shopify Mobile/iOS/10.1.0",
      }),
    ).toBe(true);
    expect(ask({ "user-agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36" })).toBe(
      true,
    );
    expect(
      ask({ "user-agent": "Mozilla/5.0 (iPad; CPU OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1" }),
    ).toBe(false);
    expect(ask({ "user-agent": "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" })).toBe(false);
    expect(ask({ "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15" })).toBe(
      false,
    );
    expect(ask({})).toBe(false);
  });
});
