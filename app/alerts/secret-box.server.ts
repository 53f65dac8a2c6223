import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** Secrets a merchant gives the app (a Slack webhook URL) are stored sealed: AES-256-GCM, the key from the environment. */
const VERSION = "v1";

export class SecretKeyError extends Error {}

/** ALERTS_SECRET_KEY: 32 bytes as 64 hex characters or base64. Null when unset (the settings page says what to do). */
export function alertsSecretKey(env: Record<string, string | undefined> = process.env): Buffer | null {
  const text = env.ALERTS_SECRET_KEY?.trim();
  if (!text) return null;
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32) throw new SecretKeyError("ALERTS_SECRET_KEY must be 32 bytes: 64 hex characters or 44 base64 characters (openssl rand -hex 32).");
  return key;
}

export function sealSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")}`;
}

/** Throws when the key is not the one it was sealed with, or the text was changed. */
export function openSecret(sealedText: string, key: Buffer): string {
  const [version, body] = sealedText.split(":");
  if (version !== VERSION || !body) throw new SecretKeyError("not a sealed secret");
  const bytes = Buffer.from(body, "base64");
  if (bytes.length < 28) throw new SecretKeyError("sealed secret too short");
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12), { authTagLength: 16 });
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}

/** What a person may see of a webhook URL: its host and path start, and the last four characters. */
export function secretUrlHint(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}/services/…${url.slice(-4)}`;
}
