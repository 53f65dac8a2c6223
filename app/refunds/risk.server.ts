import type { PrismaClient } from "@prisma/client";
import { paymentsDisputeGid } from "../exposure/order-exposure";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import type { OrderForRefund } from "../shopify/admin/refunds.server";
import { readDisputeDetails, type DisputeDetailsAnswer } from "../exposure/reads.server";
import { shopTimeZone } from "../shops/profile.server";
import { formatInstant } from "../lib/time/format";
import { riskFacts, type RiskCode } from "./risk";
import { chargebackWarning, storeCreditWarning, type DisputeDetailsRead, type RiskWarning } from "./risk-warnings";

export interface OrderRisks {
  /** The risks any refund of this order runs (a refund past the payment depends on the amount: the page words it as it is typed). */
  codes: RiskCode[];
  warnings: RiskWarning[];
}

/**
 * What the refund form warns of before anything is typed: an open chargeback (its amount and due
 * date read only then, and only where the shop granted read_shopify_payments_disputes) and an
 * earlier refund to store credit. The order is the form's own read; a failed details read is said
 * as such, and the chargeback is still there to confirm (its status came with the order).
 */
export async function orderRisks(db: PrismaClient, gateway: ShopifyGateway, shop: string, order: OrderForRefund, now: Date): Promise<OrderRisks> {
  const facts = riskFacts(order);
  const risks: OrderRisks = { codes: [], warnings: [] };
  if (facts.openDisputes.length) {
    const answers = await readDisputeDetails(
      gateway,
      shop,
      facts.openDisputes.map((d) => paymentsDisputeGid(d.id)),
    );
    const found = facts.openDisputes.map((d) => answers.get(paymentsDisputeGid(d.id)) ?? ({ kind: "failed" } as const));
    // The shop's time zone, as every date the app shows; asked of Shopify only when a due date is to be shown.
    const timeZone = found.some((a) => a.kind === "read" && a.details.evidenceDueBy) ? await shopTimeZone(db, shop, { gateway, now }) : "UTC";
    risks.codes.push("OPEN_CHARGEBACK");
    risks.warnings.push(
      chargebackWarning(
        facts,
        found.map((answer) => detailsRead(answer, timeZone)),
      ),
    );
  }
  if (facts.storeCredit.minor > 0n) {
    risks.codes.push("STORE_CREDIT_REFUNDED");
    risks.warnings.push(storeCreditWarning(facts));
  }
  return risks;
}

function detailsRead(answer: DisputeDetailsAnswer, timeZone: string): DisputeDetailsRead {
  if (answer.kind !== "read") return answer;
  const { amount, evidenceDueBy } = answer.details;
  return { kind: "read", amount, dueBy: evidenceDueBy ? formatInstant(evidenceDueBy, timeZone) : null };
}
