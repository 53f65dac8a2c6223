import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { shopOfSessionToken } from "../../app/shopify/session-token.server";
import { mintSessionToken } from "../../fake-shopify/session-token";

const APP = { apiKey: "app-key", secret: "app-secret" };
const NOW = 1_800_000_000;
const mint = (overrides = {}, secret = APP.secret) => mintSessionToken({ shop: "a.myshopify.com", apiKey: APP.apiKey, secret, nowSeconds: NOW, overrides });
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

// The token that lets /auth/exit-iframe send the admin's top window to a shop's admin (issue 42, item 8).
describe("a session token names its shop only when this app signed it and it is in date", () => {
  it("a token Shopify admin signed for this app names its shop", () => {
    expect(shopOfSessionToken(mint(), APP, NOW)).toBe("a.myshopify.com");
  });

  it.each([
    ["signed with another secret", () => mint({}, "other-secret")],
    ["addressed to another app", () => mint({ aud: "other-app" })],
    ["expired", () => mint({ exp: NOW - 60 })],
    ["not yet valid", () => mint({ nbf: NOW + 60 })],
    ["cut short", () => mint().split(".").slice(0, 2).join(".")],
    [
      "its payload changed after signing",
      () => mint().replace(/^([^.]+)\.[^.]+/, (_, h) => `${h}.${part({ aud: APP.apiKey, dest: "https://b.myshopify.com", exp: NOW + 60, nbf: NOW - 5 })}`),
    ],
    ["with alg none", () => `${part({ alg: "none" })}.${part({ aud: APP.apiKey, dest: "https://a.myshopify.com", exp: NOW + 60, nbf: NOW - 5 })}.`],
    [
      "with alg none, signed all the same",
      () => {
        const unsigned = `${part({ alg: "none" })}.${part({ aud: APP.apiKey, dest: "https://a.myshopify.com", exp: NOW + 60, nbf: NOW - 5 })}`;
        return `${unsigned}.${createHmac("sha256", APP.secret).update(unsigned).digest("base64url")}`;
      },
    ],
    ["not a token at all", () => "garbage"],
  ])("%s: none", (_, token) => {
    expect(shopOfSessionToken(token(), APP, NOW)).toBeNull();
  });
});
