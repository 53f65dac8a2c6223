import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { readPaymentsAccount, type PaymentsAccess } from "../shopify/admin/settlement-reads.server";
import { grantsPayouts } from "./scopes";

export { grantsPayouts, PAYMENTS_SCOPES } from "./scopes";

/** The column's values, parsed at the door. */
const paymentsAccessValue = z.enum(["active", "none", "not_granted"]);

/** How long a shop's answer about its Shopify Payments account holds before it is asked again. */
const ACCESS_HOLDS_MS = 24 * 3600_000;

/** The offline session's scopes and Shopify's last answer about the account, as stored: one read of each. */
async function storedAccess(db: PrismaClient, shop: string) {
  const [session, state] = await Promise.all([
    db.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } }),
    db.shopState.findUnique({ where: { shop }, select: { paymentsAccount: true, paymentsCheckedAt: true } }),
  ]);
  const known = paymentsAccessValue.safeParse(state?.paymentsAccount);
  return { granted: grantsPayouts(session?.scope), access: known.success ? known.data : null, checkedAt: state?.paymentsCheckedAt ?? null };
}

/** What the app knows of a shop's payouts without asking Shopify: the offline session's scopes and the last answer. */
export async function knownPaymentsAccess(db: PrismaClient, shop: string): Promise<PaymentsAccess | null> {
  const stored = await storedAccess(db, shop);
  return stored.granted ? stored.access : "not_granted";
}

export async function recordPaymentsAccess(db: PrismaClient, shop: string, access: PaymentsAccess, now: Date): Promise<void> {
  await db.shopState.upsert({
    where: { shop },
    create: { shop, paymentsAccount: access, paymentsCheckedAt: now },
    update: { paymentsAccount: access, paymentsCheckedAt: now },
  });
}

/**
 * Whether the shop's refunds can be followed to the payout: the scope granted (the session says,
 * no request), then Shopify's own answer about the account, asked at most once a day; null when
 * Shopify could not be asked now.
 */
export async function paymentsAccess(db: PrismaClient, gateway: ShopifyGateway, shop: string, now: Date): Promise<PaymentsAccess | null> {
  const stored = await storedAccess(db, shop);
  if (!stored.granted) return "not_granted";
  // Shopify's answer holds a day, "not granted" too (the session said granted, Shopify refused):
  // app/scopes_update forgets it when the shop's scopes change.
  const fresh = stored.checkedAt !== null && now.getTime() - stored.checkedAt.getTime() < ACCESS_HOLDS_MS;
  if (stored.access && fresh) return stored.access;
  const read = await readPaymentsAccount(gateway, shop);
  if (!read.ok) return null;
  await recordPaymentsAccess(db, shop, read.access, now);
  return read.access;
}

/** The shop changed what it grants (app/scopes_update): its account is asked about again at the next pass. */
export async function forgetPaymentsAccess(db: PrismaClient, shop: string): Promise<void> {
  await db.shopState.updateMany({ where: { shop }, data: { paymentsAccount: null, paymentsCheckedAt: null } });
}
