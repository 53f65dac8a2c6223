import type { PrismaClient } from "@prisma/client";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { readPaymentsAccount, type PaymentsAccess } from "../shopify/admin/settlement-reads.server";

/**
 * The optional scopes that let the app read Shopify Payments' ledger: the 2026-10 schema says
 * ShopifyPaymentsAccount "Requires the read_shopify_payments or read_shopify_payments_accounts
 * approval scope", and its balance transactions and payouts need access to payouts. Both are
 * approval scopes: Shopify grants them to an app it approved for them.
 */
export const PAYMENTS_SCOPES = ["read_shopify_payments_accounts", "read_shopify_payments_payouts"] as const;

/** How long a shop's answer about its Shopify Payments account holds before it is asked again. */
const ACCESS_HOLDS_MS = 24 * 3600_000;

export function grantsPayouts(scope: string | null | undefined): boolean {
  const granted = new Set((scope ?? "").split(","));
  // read_shopify_payments covers both; a write_ scope implies its read_ scope.
  return granted.has("read_shopify_payments") || PAYMENTS_SCOPES.every((s) => granted.has(s) || granted.has(s.replace(/^read_/, "write_")));
}

/** What the app knows of a shop's payouts without asking Shopify: the offline session's scopes and the last answer. */
export async function knownPaymentsAccess(db: PrismaClient, shop: string): Promise<PaymentsAccess | null> {
  const [session, state] = await Promise.all([
    db.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } }),
    db.shopState.findUnique({ where: { shop }, select: { paymentsAccount: true } }),
  ]);
  if (!grantsPayouts(session?.scope)) return "not_granted";
  return (state?.paymentsAccount as PaymentsAccess | null) ?? null;
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
  const session = await db.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } });
  if (!grantsPayouts(session?.scope)) return "not_granted";
  const state = await db.shopState.findUnique({ where: { shop }, select: { paymentsAccount: true, paymentsCheckedAt: true } });
  const fresh = state?.paymentsCheckedAt && now.getTime() - state.paymentsCheckedAt.getTime() < ACCESS_HOLDS_MS;
  if (state?.paymentsAccount && state.paymentsAccount !== "not_granted" && fresh) return state.paymentsAccount as PaymentsAccess;
  const read = await readPaymentsAccount(gateway, shop);
  if (!read.ok) return null;
  await recordPaymentsAccess(db, shop, read.access, now);
  return read.access;
}

/** The shop changed what it grants (app/scopes_update): its account is asked about again at the next pass. */
export async function forgetPaymentsAccess(db: PrismaClient, shop: string): Promise<void> {
  await db.shopState.updateMany({ where: { shop }, data: { paymentsAccount: null, paymentsCheckedAt: null } });
}
