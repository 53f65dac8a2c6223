import { describe, expect, it } from "vitest";
import { createCipheriv, randomBytes } from "node:crypto";
import { isCurrentSeal, openSecret, sealSecret, SecretKeyError, secretUrlHint } from "../../../app/lib/crypto/secret-box.server";

const URL_TEXT = "https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnop";
const key = Buffer.alloc(32, 7);
const SHOP_A = "AlertSettings.slackUrl:a.myshopify.com";
const SHOP_B = "AlertSettings.slackUrl:b.myshopify.com";

describe("secrets at rest", () => {
  it("seal and open again; the sealed text does not contain the secret and differs each time", () => {
    const once = sealSecret(URL_TEXT, key, SHOP_A);
    const twice = sealSecret(URL_TEXT, key, SHOP_A);
    expect(once).not.toBe(twice);
    expect(once).not.toContain("abcdefghijklmnop");
    expect(openSecret(once, key, SHOP_A)).toBe(URL_TEXT);
  });

  it("refuse to open with another key or after a change", () => {
    const sealed = sealSecret(URL_TEXT, key, SHOP_A);
    expect(() => openSecret(sealed, Buffer.alloc(32, 8), SHOP_A)).toThrow();
    const bytes = Buffer.from(sealed.slice(3), "base64");
    bytes[bytes.length - 1] ^= 1;
    expect(() => openSecret(`v2:${bytes.toString("base64")}`, key, SHOP_A)).toThrow();
    expect(() => openSecret("plain text", key, SHOP_A)).toThrow(SecretKeyError);
  });

  it("refuse to open a sealed value copied to another row: it is bound to the row it was sealed for", () => {
    const sealed = sealSecret(URL_TEXT, key, SHOP_A);
    expect(() => openSecret(sealed, key, SHOP_B)).toThrow();
    expect(openSecret(sealed, key, SHOP_A)).toBe(URL_TEXT);
  });

  it("still open a value sealed before the binding (v1), and say it is to be sealed again", () => {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const body = Buffer.concat([cipher.update(URL_TEXT, "utf8"), cipher.final()]);
    const legacy = `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
    expect(openSecret(legacy, key, SHOP_B)).toBe(URL_TEXT);
    expect([isCurrentSeal(legacy), isCurrentSeal(sealSecret(URL_TEXT, key, SHOP_A))]).toEqual([false, true]);
  });

  it("show a person only the host and the last four characters", () => {
    expect(secretUrlHint(URL_TEXT)).toBe("hooks.slack.com/services/…mnop");
  });
});
