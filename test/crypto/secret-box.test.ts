import { describe, expect, it } from "vitest";
import { openSecret, sealSecret, SecretKeyError, secretUrlHint } from "../../app/crypto/secret-box.server";

const URL_TEXT = "https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnop";
const key = Buffer.alloc(32, 7);

describe("secrets at rest", () => {
  it("seal and open again; the sealed text does not contain the secret and differs each time", () => {
    const once = sealSecret(URL_TEXT, key);
    const twice = sealSecret(URL_TEXT, key);
    expect(once).not.toBe(twice);
    expect(once).not.toContain("abcdefghijklmnop");
    expect(openSecret(once, key)).toBe(URL_TEXT);
  });

  it("refuse to open with another key or after a change", () => {
    const sealed = sealSecret(URL_TEXT, key);
    expect(() => openSecret(sealed, Buffer.alloc(32, 8))).toThrow();
    const bytes = Buffer.from(sealed.slice(3), "base64");
    bytes[bytes.length - 1] ^= 1;
    expect(() => openSecret(`v1:${bytes.toString("base64")}`, key)).toThrow();
    expect(() => openSecret("plain text", key)).toThrow(SecretKeyError);
  });

  it("show a person only the host and the last four characters", () => {
    expect(secretUrlHint(URL_TEXT)).toBe("hooks.slack.com/services/…mnop");
  });
});
