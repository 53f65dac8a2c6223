import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { config } from "../config/env.server";

/**
 * Secrets kept at rest (a merchant's Slack webhook URL, a shop's access and refresh tokens) are
 * stored sealed: AES-256-GCM, the key from the configuration (each kind of secret its own key),
 * bound to where it belongs (`boundTo`, GCM's associated data: the column and the row's owner), so
 * a sealed value copied to another row does not open there. `v1` values, sealed before the binding,
 * still open; their readers seal them again (`isCurrentSeal`).
 */
const VERSION = "v2";
const LEGACY = "v1";

export class SecretKeyError extends Error {}

/** ALERTS_SECRET_KEY (parsed at start: a malformed one stops it). Null when unset (the settings page says what to do). */
export function alertsSecretKey(): Buffer | null {
  return config().ALERTS_SECRET_KEY ?? null;
}

/** Whether a stored value is one of ours, sealed (the text `sealSecret` writes), rather than plaintext. */
export const isSealed = (text: string) => text.startsWith(`${VERSION}:`) || text.startsWith(`${LEGACY}:`);

/** Whether a sealed value is bound to its row; one that is not is sealed again when read. */
export const isCurrentSeal = (text: string) => text.startsWith(`${VERSION}:`);

export function sealSecret(plain: string, key: Buffer, boundTo: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")}`;
}

/** Throws when the key is not the one it was sealed with, the text was changed, or it was sealed for another row. */
export function openSecret(sealedText: string, key: Buffer, boundTo: string): string {
  const [version, body] = sealedText.split(":");
  if ((version !== VERSION && version !== LEGACY) || !body) throw new SecretKeyError("not a sealed secret");
  const bytes = Buffer.from(body, "base64");
  if (bytes.length < 28) throw new SecretKeyError("sealed secret too short");
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12), { authTagLength: 16 });
  if (version === VERSION) decipher.setAAD(Buffer.from(boundTo, "utf8"));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}

/** What a person may see of a webhook URL: its host and path start, and the last four characters. */
export function secretUrlHint(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}/services/…${url.slice(-4)}`;
}
