// What the pages show of a refund's exposure: the evidence page's section, and the lists' "at risk twice" mark.
import type { PrismaClient } from "@prisma/client";
import { readStored, storedStrings } from "../lib/db/stored-json";
import { readInSlices } from "../lib/db/slices";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import type { MoneyView } from "../settlement/view";
import { refundProofFacts, type DisputeProofView, type RefundProof } from "./dispute-proof";
import { disputeProofOf } from "./dispute-proof.server";
import { exposureView, storedExposure, type ExposureView } from "./view";

/** The evidence page's "Money at risk twice" section for one of the shop's refunds; null before it has an exposure (not verified, or not opened yet). */
async function exposureOfRefund(db: PrismaClient, shop: string, operationId: string): Promise<ExposureView | null> {
  const row = await db.exposure.findFirst({
    where: { shop, operationId },
    select: { status: true, reasons: true, atRisk: true, currency: true, observed: true },
  });
  if (!row) return null;
  // The app writes `observed` itself; a value of another version shows the verdict without the disputes.
  return exposureView(row, readStored(storedExposure, row.observed) ?? null);
}

/** The evidence page's "Money at risk twice" section, with the refund's proof a dispute asks for and the proof's button (or why it cannot be sent, or Shopify's answer once it was). */
export type ExposureSection = ExposureView & { proof: RefundProof; disputeProof: DisputeProofView | null };

/** The section of one of the shop's refunds (contract shopify.refund.exposure); null before it has an exposure. */
export async function exposureSection(
  db: PrismaClient,
  gateway: ShopifyGateway,
  refund: { shop: string; operationId: string; startedAt: Date; amount: string | null; money: MoneyView },
): Promise<ExposureSection | null> {
  const [view, disputeProof] = await Promise.all([
    exposureOfRefund(db, refund.shop, refund.operationId),
    disputeProofOf(db, gateway, refund.shop, refund.operationId),
  ]);
  return view && { ...view, proof: refundProofFacts(refund.amount, refund.startedAt.toISOString(), refund.money.followed), disputeProof };
}

/** A refund at risk of being paid twice, as a list names it: the headline reason in a merchant's words and the money at stake. */
export interface AtRiskTwice {
  reasonText: string;
  atRisk: string | null;
  classes: string[];
}

/** Which of these refunds are at risk of being paid twice now, by operation id (the review queue shows them with their verified verdict). */
export async function atRiskTwiceOf(db: PrismaClient, shop: string, operationIds: string[]): Promise<Map<string, AtRiskTwice>> {
  const rows = operationIds.length
    ? await readInSlices(operationIds, (slice) =>
        db.exposure.findMany({
          where: { shop, status: "CONTRADICTED", operationId: { in: slice } },
          select: { operationId: true, status: true, reasons: true, classes: true, atRisk: true, currency: true },
        }),
      )
    : [];
  return new Map(
    rows.map((row) => {
      const view = exposureView(row, null);
      return [row.operationId, { reasonText: view.reasons[0] ?? "", atRisk: view.atRisk, classes: readStored(storedStrings, row.classes) ?? [] }];
    }),
  );
}
