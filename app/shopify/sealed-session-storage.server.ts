import { hkdfSync } from "node:crypto";
import { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { config } from "../lib/config/env.server";
import { isCurrentSeal, isSealed, openSecret, sealSecret, SecretKeyError } from "../lib/crypto/secret-box.server";
import { logger } from "../lib/logging/logger.server";

export interface SessionKeys {
  /** Seals every token written. */
  current: Buffer;
  /** Also opens tokens (sealed before a rotation), which are then sealed again with `current`. */
  previous?: Buffer;
}

/**
 * SESSION_SECRET_KEY (required in production, checked at start). Outside production, unset, a key
 * derived from the app's API secret, so that `shopify app dev` works without one: the tokens are
 * still never stored in plaintext, and the log says the key is a development one.
 */
export function sessionKeys(): SessionKeys {
  const { SESSION_SECRET_KEY, SESSION_SECRET_KEY_PREVIOUS, SHOPIFY_API_SECRET } = config();
  if (SESSION_SECRET_KEY) return { current: SESSION_SECRET_KEY, previous: SESSION_SECRET_KEY_PREVIOUS };
  logger.warn("SESSION_SECRET_KEY is unset: shops' tokens are sealed with a development key derived from the app's secret");
  return { current: Buffer.from(hkdfSync("sha256", SHOPIFY_API_SECRET || "refund-verifier", "", "refund-verifier session tokens (development)", 32)) };
}

type TokenField = "accessToken" | "refreshToken";
const TOKEN_FIELDS: TokenField[] = ["accessToken", "refreshToken"];

/** A token is sealed for its session and field: copied to another session's row, it does not open. */
const boundTo = (sessionId: string, field: TokenField) => `Session.${field}:${sessionId}`;

/**
 * The Prisma session storage with the shops' access and refresh tokens sealed at rest, by their own
 * key (not the alerts key). Sessions are read and written through it transparently. A row still
 * in plaintext (written before sealing existed), or sealed with the previous key, is sealed again
 * with the current key the first time it is read.
 */
export class SealedSessionStorage implements SessionStorage {
  constructor(
    private readonly inner: SessionStorage,
    private readonly keys: SessionKeys,
  ) {}

  storeSession(session: Session): Promise<boolean> {
    return this.inner.storeSession(this.sealed(session));
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const stored = await this.inner.loadSession(id);
    return stored && this.opened(stored);
  }

  deleteSession(id: string): Promise<boolean> {
    return this.inner.deleteSession(id);
  }

  deleteSessions(ids: string[]): Promise<boolean> {
    return this.inner.deleteSessions(ids);
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    return Promise.all((await this.inner.findSessionsByShop(shop)).map((session) => this.opened(session)));
  }

  private sealed(session: Session): Session {
    const params = session.toObject();
    for (const field of TOKEN_FIELDS) {
      const value = params[field];
      if (value && !isSealed(value)) params[field] = sealSecret(value, this.keys.current, boundTo(session.id, field));
    }
    return new Session(params);
  }

  /** The session as the library needs it (tokens in the clear), resealing what was stored in an old form. */
  private async opened(stored: Session): Promise<Session> {
    const params = stored.toObject();
    let reseal = false;
    for (const field of TOKEN_FIELDS) {
      const value = params[field];
      if (!value) continue;
      if (!isSealed(value)) reseal = true;
      else {
        const opened = this.open(value, stored.id, field);
        params[field] = opened.plain;
        reseal ||= opened.withPrevious || !isCurrentSeal(value);
      }
    }
    const session = new Session(params);
    if (reseal) await this.inner.storeSession(this.sealed(session));
    return session;
  }

  private open(value: string, id: string, field: TokenField): { plain: string; withPrevious: boolean } {
    try {
      return { plain: openSecret(value, this.keys.current, boundTo(id, field)), withPrevious: false };
    } catch {
      // Not this key's (or altered, or another row's): the key before a rotation may open it.
      if (this.keys.previous) return { plain: openSecret(value, this.keys.previous, boundTo(id, field)), withPrevious: true };
      throw new SecretKeyError(
        `session ${id}: its tokens were sealed with another SESSION_SECRET_KEY (set the old one as SESSION_SECRET_KEY_PREVIOUS), or for another session`,
      );
    }
  }
}
