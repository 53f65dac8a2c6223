import { disputesConnection } from "./dispute-views";
import type { BalanceTransaction, Ledger, Payout } from "./payments";
import { compareId, compareTime, search, type SearchTerm } from "./search";
import type { FakeShop } from "./shop";
import { accessDenied, connection, dateTime, gid, money, type PageArgs, type Views } from "./views";

/** The 2026-10 schema's access metadata of ShopifyPaymentsAccount, word for word. */
const ACCOUNT_ACCESS = "the `read_shopify_payments` or the `read_shopify_payments_accounts` access scope.";
/**
 * The schema says of balance transactions and payouts only "The user must have access to
 * payouts."; Shopify's REST reference of the same records names the scopes: `shopify_payments_payouts`
 * or `shopify_payments`.
 */
const PAYOUTS_ACCESS = "`read_shopify_payments_payouts` access scope.";

interface BalanceTransactionArgs extends PageArgs {
  query?: string | null;
  sortKey?: string | null;
}

interface PayoutArgs extends PageArgs {
  query?: string | null;
  sortKey?: string | null;
  transactionType?: "DEPOSIT" | "WITHDRAWAL" | null;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const byId = <T extends { id: bigint }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The balance transactions' search fields this fake serves, of those the `query` argument's
 * description lists. The others (available_on, credit_card_last4, payment_method_name,
 * tax_reporting_exempt, free text) are ignored, as Shopify ignores search fields it does not know:
 * they filter nothing.
 */
const balanceTerm =
  (ledger: Ledger) =>
  (term: SearchTerm, bt: BalanceTransaction): boolean | null => {
    const payout = ledger.payoutOf.get(bt);
    switch (term.field) {
      case "transaction_type":
        return same(bt.type, term.value);
      case "processed_at":
        return compareTime(term, bt.date);
      case "payout_status":
        return same(payout?.status ?? "PENDING", term.value);
      case "payout_date":
        return compareTime(term, payout?.issuedAt ?? null);
      case "payments_transfer_id":
        return compareId(term, payout?.id ?? null);
      case "id":
        return compareId(term, bt.id);
      case "currency":
        return same(bt.currency, term.value);
      default:
        return null;
    }
  };

/** The payouts' search fields served: status, issued_at, id, currency (amount, bank_account, ledger_type, transaction_dates are ignored). */
function payoutTerm(term: SearchTerm, payout: Payout): boolean | null {
  switch (term.field) {
    case "status":
      return same(payout.status, term.value);
    case "issued_at":
      return compareTime(term, payout.issuedAt);
    case "id":
      return compareId(term, payout.id);
    case "currency":
      return same(payout.currency, term.value);
    default:
      return null;
  }
}

function balanceTransactionView(bt: BalanceTransaction, ledger: Ledger) {
  const payout = ledger.payoutOf.get(bt);
  return {
    __typename: "ShopifyPaymentsBalanceTransaction",
    id: gid("ShopifyPaymentsBalanceTransaction", bt.id),
    type: bt.type,
    sourceType: "REFUND",
    // BigInt "may exceed the size of a 32-bit integer, it's encoded as a string" (the schema's
    // client-built scalar passes values through: a JS bigint would not survive JSON).
    sourceId: bt.source.id.toString(),
    sourceOrderTransactionId: bt.source.id.toString(),
    amount: money(bt.amountMinor, bt.currency),
    fee: money(0n, bt.currency),
    net: money(bt.amountMinor, bt.currency),
    transactionDate: dateTime(bt.date),
    test: false,
    // PENDING: "The transaction has not been assigned a payout yet."
    associatedPayout: { id: payout ? gid("ShopifyPaymentsPayout", payout.id) : null, status: payout?.status ?? "PENDING" },
    associatedOrder: { id: gid("Order", bt.order.id), name: bt.order.name },
    adjustmentsOrders: [],
    adjustmentReason: null,
  };
}

/**
 * ShopifyPaymentsPayoutTransactionType: "whether funds move into the bank account (deposit) or back
 * to Shopify Payments (withdrawal)". This fake's balance holds refunds only, so its payouts take
 * money from the bank unless reversals outweigh them.
 */
const direction = (payout: Payout) => (payout.netMinor < 0n ? "WITHDRAWAL" : "DEPOSIT");

function payoutView(shop: FakeShop, payout: Payout) {
  const sum = (type: BalanceTransaction["type"]) => payout.transactions.filter((bt) => bt.type === type).reduce((s, bt) => s + bt.amountMinor, 0n);
  const zero = money(0n, payout.currency);
  return {
    __typename: "ShopifyPaymentsPayout",
    id: gid("ShopifyPaymentsPayout", payout.id),
    legacyResourceId: payout.id.toString(),
    status: payout.status,
    issuedAt: dateTime(payout.issuedAt),
    net: money(payout.netMinor, payout.currency),
    gross: money(payout.netMinor, payout.currency),
    transactionType: direction(payout),
    externalTraceId: payout.status === "PAID" ? (payout.id % 10n ** 15n).toString().padStart(15, "0") : null,
    bankAccount: null,
    businessEntity: {
      __typename: "BusinessEntity",
      id: gid("BusinessEntity", 1n),
      displayName: shop.name,
      companyName: null,
      primary: true,
      archived: false,
      legalEntityId: null,
      address: { countryCode: shop.payments.country, address1: null, address2: null, city: null, province: null, zip: null },
    },
    // The refunds are refunds' gross; a refund failure, money Shopify put back, counts as an adjustment.
    summary: {
      adjustmentsFee: zero,
      adjustmentsGross: money(sum("REFUND_FAILURE"), payout.currency),
      advanceFees: zero,
      advanceGross: zero,
      chargesFee: zero,
      chargesGross: zero,
      refundsFee: zero,
      refundsFeeGross: money(sum("REFUND"), payout.currency),
      reservedFundsFee: zero,
      reservedFundsGross: zero,
      retriedPayoutsFee: zero,
      retriedPayoutsGross: zero,
      usdcRebateCreditAmount: zero,
    },
  };
}

/**
 * The root field `shopifyPaymentsAccount`: null for a shop without Shopify Payments; an
 * ACCESS_DENIED error (thrown: graphql-js answers null with the error at its path) for an app
 * without the scope. Balance transactions and payouts need access to payouts besides, disputes
 * read_shopify_payments_disputes: without it their non-null connection's error nulls the whole
 * account, so nothing of it reaches the app.
 */
export function shopifyPaymentsAccount(shop: FakeShop, views: Views) {
  if (!shop.hasScope("read_shopify_payments", "read_shopify_payments_accounts")) throw accessDenied("shopifyPaymentsAccount", ACCOUNT_ACCESS);
  const payments = shop.payments;
  if (payments.account === "none") return null;
  const payoutsReadable = (field: string) => {
    if (!shop.hasScope("read_shopify_payments_payouts", "read_shopify_payments")) throw accessDenied(field, PAYOUTS_ACCESS);
    return payments.ledger();
  };
  return {
    __typename: "ShopifyPaymentsAccount",
    id: gid("ShopifyPaymentsAccount", 1n),
    activated: true,
    onboardable: false,
    country: payments.country,
    defaultCurrency: shop.currency,
    // "Current balances in all currencies": what no payout carries yet.
    balance: () => {
      const ledger = payments.ledger();
      const pendingMinor = ledger.transactions.filter((bt) => !ledger.payoutOf.has(bt)).reduce((sum, bt) => sum + bt.amountMinor, 0n);
      return [money(pendingMinor, shop.currency)];
    },
    // PROCESSED_AT (the default) and ID are served; any other sort key in processed_at order.
    // hideTransfers filters nothing: this fake records no TRANSFER.
    balanceTransactions: (args: BalanceTransactionArgs) => {
      const ledger = payoutsReadable("balanceTransactions");
      const found = search(ledger.transactions, args.query, balanceTerm(ledger));
      return connection(args.sortKey === "ID" ? [...found].sort(byId) : found, args, (bt) => balanceTransactionView(bt, ledger));
    },
    // ISSUED_AT (the default) and ID are served; any other sort key in issued_at order.
    payouts: (args: PayoutArgs) => {
      const ledger = payoutsReadable("payouts");
      const found = search(ledger.payouts, args.query, payoutTerm).filter((p) => !args.transactionType || direction(p) === args.transactionType);
      return connection(args.sortKey === "ID" ? [...found].sort(byId) : found, args, (p) => payoutView(shop, p));
    },
    payoutSchedule: () => payments.payoutSchedule,
    // Disputes need read_shopify_payments_disputes besides: without it the error nulls the account, as payouts' does.
    disputes: (args: PageArgs & { query?: string | null }) => disputesConnection(shop, views, args, "disputes"),
    // Not modelled: no bank accounts, no statement descriptors.
    bankAccounts: (args: PageArgs) => connection([], args, (x) => x),
    chargeStatementDescriptors: null,
    chargeStatementDescriptor: null,
    payoutStatementDescriptor: null,
    accountOpenerName: () => {
      if (!shop.hasScope("read_shopify_payments_accounts_sensitive"))
        throw accessDenied("accountOpenerName", "`read_shopify_payments_accounts_sensitive` access scope.");
      return null;
    },
  };
}
