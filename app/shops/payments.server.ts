import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { readPaymentsAccount, type PaymentsAccess } from "./payments-reads.server";
import { readGrantedScopes, recordGrantedScopes } from "./scopes.server";
import { grantsPayouts } from "./payments-scopes";
import { readStored } from "../lib/db/stored-json";
import type { PayoutSchedule } from "./payout-schedule";
import { payoutSchedule } from "./payout-schedule.server";

export { grantsPayouts, PAYMENTS_SCOPES } from "./payments-scopes";

/** The column's values, parsed at the door. */
const paymentsAccessValue = z.enum(["active", "none", "not_granted"]);
/** Written by app/scopes_update: what the shop grants may have changed, and Shopify is to be asked at the next pass. */
const ASK_AGAIN = "ask_again";

/** How long a shop's answer about its Shopify Payments account holds before it is asked again. */
const ACCESS_HOLDS_MS = 24 * 3600_000;

/** The offline session's scopes and Shopify's last answer about the account, as stored: one read of each. */
async function storedAccess(db: PrismaClient, shop: string) {
  const [session, state] = await Promise.all([
    db.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } }),
    db.shopState.findUnique({ where: { shop }, select: { paymentsAccount: true, paymentsCheckedAt: true } }),
  ]);
  const known = paymentsAccessValue.safeParse(state?.paymentsAccount);
  return {
    granted: grantsPayouts(session?.scope),
    access: known.success ? known.data : null,
    checkedAt: state?.paymentsCheckedAt ?? null,
    askAgain: state?.paymentsAccount === ASK_AGAIN,
  };
}

/** What the app knows of a shop's payouts without asking Shopify: the offline session's scopes and the last answer. */
export async function knownPaymentsAccess(db: PrismaClient, shop: string): Promise<PaymentsAccess | null> {
  const stored = await storedAccess(db, shop);
  return stored.granted ? stored.access : "not_granted";
}

/**
 * Shopify's answer about the account, and with it the payout schedule it gave (decision 032): a
 * shop without an account, or without the scopes, has none the app knows. `schedule` undefined:
 * the answer held an error where the schedule is, and the one stored stays.
 */
export async function recordPaymentsAccess(db: PrismaClient, shop: string, access: PaymentsAccess, now: Date, schedule?: PayoutSchedule | null): Promise<void> {
  const kept = access === "active" && schedule === undefined;
  const known = {
    paymentsAccount: access,
    paymentsCheckedAt: now,
    ...(kept ? {} : { payoutSchedule: access === "active" && schedule ? JSON.stringify(schedule) : null }),
  };
  await db.shopState.upsert({ where: { shop }, create: { shop, ...known }, update: known });
}

/**
 * The shop's payout schedule as Shopify last gave it with the account (stored JSON, parsed at the
 * door); null when it was never read, the shop has no account the app may read, or the answer
 * held none the rule can use: late money then falls back to its 7 days and says so.
 */
export async function knownPayoutSchedule(db: PrismaClient, shop: string): Promise<PayoutSchedule | null> {
  // Written with every answer about the account (null for none or no scopes); kept while the shop is being asked again.
  const state = await db.shopState.findUnique({ where: { shop }, select: { payoutSchedule: true } });
  return storedPayoutSchedule(state?.payoutSchedule);
}

/** ShopState.payoutSchedule as stored, parsed at the door, for a caller that read the row for more than it. */
export const storedPayoutSchedule = (stored: string | null | undefined): PayoutSchedule | null => readStored(payoutSchedule, stored) ?? null;

/**
 * Whether the shop's refunds can be followed to the payout, as Shopify says: for a shop whose
 * session holds the payments scopes (asked at most once a day) or that sent app/scopes_update
 * since, first the scopes it granted (read with its own token, and stored on its offline session
 * as Shopify answers), then whether it has a Shopify Payments account. Any other shop never
 * granted them: no request. Null when Shopify could not be asked now. What a webhook's body says
 * is never stored: a signed delivery replayed under another shop's header, or one that arrives
 * late, could otherwise withdraw a shop's scopes and keep a failed payout from being reported (issue 42).
 */
export async function paymentsAccess(db: PrismaClient, gateway: ShopifyGateway, shop: string, now: Date): Promise<PaymentsAccess | null> {
  const stored = await storedAccess(db, shop);
  if (!stored.granted && !stored.askAgain) return "not_granted";
  const fresh = stored.checkedAt !== null && now.getTime() - stored.checkedAt.getTime() < ACCESS_HOLDS_MS;
  if (stored.access && fresh) return stored.access;
  const scopes = await readGrantedScopes(gateway, shop);
  if (!scopes.ok) return null;
  await recordGrantedScopes(db, shop, scopes.scopes);
  const read = grantsPayouts(scopes.scopes.join(","))
    ? await readPaymentsAccount(gateway, shop)
    : ({ ok: true, access: "not_granted", schedule: null } as const);
  if (!read.ok) return null;
  // The schedule comes with the account, in the same request: no request of its own, none per refund.
  await recordPaymentsAccess(db, shop, read.access, now, read.schedule);
  return read.access;
}

/** The shop may have changed what it grants (app/scopes_update): Shopify is asked at the next pass, whatever the session says. */
export async function askAboutScopesAgain(db: PrismaClient, shop: string): Promise<void> {
  await db.shopState.upsert({
    where: { shop },
    create: { shop, paymentsAccount: ASK_AGAIN, paymentsCheckedAt: null },
    update: { paymentsAccount: ASK_AGAIN, paymentsCheckedAt: null },
  });
}

/** The shops Shopify may be asked about at this pass: those whose session holds the payments scopes, and those that sent app/scopes_update. */
export async function shopsToAsk(db: PrismaClient): Promise<string[]> {
  const [sessions, hinted] = await Promise.all([
    db.session.findMany({ where: { isOnline: false }, select: { shop: true, scope: true } }),
    db.shopState.findMany({ where: { paymentsAccount: ASK_AGAIN }, select: { shop: true } }),
  ]);
  const installed = new Set(sessions.map((s) => s.shop));
  return [
    ...new Set([...sessions.filter((s) => grantsPayouts(s.scope)).map((s) => s.shop), ...hinted.map((s) => s.shop).filter((shop) => installed.has(shop))]),
  ];
}
