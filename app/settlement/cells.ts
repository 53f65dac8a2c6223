import type { FollowUpCells } from "../follow-ups/follow-up";
import type { PaymentsAccess } from "../shops/payments-reads.server";
import { knownPaymentsAccess } from "../shops/payments.server";
import { knowledgeOf, moneyHeadline, payoutNumber, payoutStatusLabel, referencesOf, type SettlementFacts } from "./words";

/** What the CSV reads of a page's settlements, in one query. */
const SETTLEMENT_FACTS = {
  operationId: true,
  status: true,
  money: true,
  arn: true,
  payoutGid: true,
  payoutStatus: true,
  processedAt: true,
  startedAt: true,
  decidedAt: true,
} as const;

/** The settlement's columns in the refunds CSV: where the money is, its card network reference, its payout. */
export const SETTLEMENT_CELLS: FollowUpCells<SettlementFacts & { operationId: string }, { access: PaymentsAccess | null }> = {
  rows: (db, shop, operationIds) => db.settlement.findMany({ where: { shop, operationId: { in: operationIds } }, select: SETTLEMENT_FACTS }),
  // The shop's access to its payouts, once a file: what a refund without a settlement says of its money.
  file: async (db, shop) => ({ access: await knownPaymentsAccess(db, shop) }),
  raw: [
    ["settlement_status", (settlement) => settlement?.status],
    ["money", (settlement) => settlement?.money],
    ["arn", (settlement) => settlement?.arn],
    ["payout_id", (settlement) => payoutNumber(settlement?.payoutGid ?? null)],
    ["payout_status", (settlement) => settlement?.payoutStatus],
  ],
  people: [
    ["Money", (settlement, refund, { access, now }) => moneyHeadline(knowledgeOf(settlement, refund.status, access, now)).title],
    // "ARN 7445…": 23 digits alone would be read as a number by a spreadsheet, and rounded.
    [
      "Card reference (ARN)",
      (settlement) =>
        referencesOf(settlement?.arn ?? null)
          .map((arn) => `ARN ${arn}`)
          .join("; "),
    ],
    ["Payout", (settlement) => settlement?.payoutGid],
    ["Payout status", (settlement) => payoutStatusLabel(settlement?.payoutStatus ?? null)],
  ],
};
