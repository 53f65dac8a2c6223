import { z } from "zod";
import { balanceEntry, settlementTransaction, type BalanceEntry, type SettlementTransaction } from "./ledger";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { PAYMENTS_LEDGER_QUERY, QUERY_COSTS, SETTLEMENT_TRANSACTIONS_QUERY } from "../shopify/admin/documents";
import { accountErrorOf } from "../shops/payments-reads.server";
import { fieldFailure, malformed, readNodes, type Failed } from "../shopify/admin/nodes.server";

/** The pages of the ledger one read may turn: a shop with more refunds since the oldest one waiting is read on at the next pass. */
export const MAX_LEDGER_PAGES = 20;

export type { Failed };

/**
 * The refund_transactions channel's reads: transactions by id, as many a request as `readNodes` sends
 * (6 points each). One that Shopify answers with an error or not as an OrderTransaction is a
 * failed read of that transaction alone.
 */
export async function readSettlementTransactions(
  gateway: ShopifyGateway,
  shop: string,
  gids: string[],
): Promise<Map<string, { ok: true; transaction: SettlementTransaction } | Failed>> {
  const read = new Map<string, { ok: true; transaction: SettlementTransaction } | Failed>();
  for (const [id, answer] of await readNodes(
    gateway,
    shop,
    { query: SETTLEMENT_TRANSACTIONS_QUERY, perNodeCost: QUERY_COSTS.settlementTransactionsPerTransaction, schema: settlementTransaction },
    gids,
  ))
    read.set(
      id,
      !answer.ok
        ? answer
        : answer.node
          ? { ok: true, transaction: answer.node }
          : malformed(`malformed response: transaction ${id} is not in Shopify's answer`),
    );
  return read;
}

const ledgerPage = z.object({
  shopifyPaymentsAccount: z
    .object({
      balanceTransactions: z.object({
        nodes: z.array(balanceEntry),
        pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
      }),
    })
    .nullable(),
});

/**
 * What one ledger read saw: every entry up to `coveredUntil` (the last page's last entry, in
 * processed_at order), or all of them since `since` when `complete`. A refund processed after
 * `coveredUntil` whose entry was not on the pages read is not known to be missing.
 */
export type LedgerRead = { ok: true; account: boolean; entries: BalanceEntry[]; complete: boolean; coveredUntil: Date | null } | Failed;

/**
 * The payments_ledger channel's read: Shopify Payments' refund entries and reversals processed
 * since `since`, in processed_at order, page after page until every transaction in `wanted`
 * (numeric ids) has its entries, the pages run out, or MAX_LEDGER_PAGES were read. The search
 * syntax filters by date and type, never by order transaction, so one read serves every refund
 * of a shop at once.
 */
export async function readPaymentsLedger(gateway: ShopifyGateway, shop: string, since: Date, wanted: Set<string>): Promise<LedgerRead> {
  const query = `(transaction_type:refund OR transaction_type:refund_failure) processed_at:>='${since.toISOString()}'`;
  const entries: BalanceEntry[] = [];
  const found = new Set<string>();
  let after: string | null = null;
  for (let page = 0; page < MAX_LEDGER_PAGES; page++) {
    const answer = await gateway.request(shop, PAYMENTS_LEDGER_QUERY, { query, after }, QUERY_COSTS.paymentsLedger, { waitThrottled: true });
    if (!answer.ok) return answer;
    const parsed = ledgerPage.safeParse(answer.data);
    if (!parsed.success) return malformed("malformed response: the balance transactions are not as the schema says");
    // Any field of the ledger Shopify could not give (the account, an entry's transaction, its payout) leaves the page unread: never a refund missing from it.
    const error = accountErrorOf(answer.fieldErrors);
    if (error) return fieldFailure(error.extensions?.code ?? "GRAPHQL_ERROR", error.message);
    const account = parsed.data.shopifyPaymentsAccount;
    if (!account) return { ok: true, account: false, entries: [], complete: true, coveredUntil: null };
    const { nodes, pageInfo } = account.balanceTransactions;
    entries.push(...nodes);
    for (const entry of nodes) if (entry.type === "REFUND") found.add(String(entry.sourceOrderTransactionId));
    // Once every refund wanted has its entry the read stops: a reversal dated later is seen by a
    // later read (a refund is read until its payout is PAID).
    if (!pageInfo.hasNextPage || [...wanted].every((id) => found.has(id))) return { ok: true, account: true, entries, complete: true, coveredUntil: null };
    after = pageInfo.endCursor;
  }
  const last = entries.at(-1)?.transactionDate;
  return { ok: true, account: true, entries, complete: false, coveredUntil: last ? new Date(last) : null };
}
