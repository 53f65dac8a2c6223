import type { FollowUpCells } from "../follow-ups/follow-up";
import { readStored, storedStrings } from "../lib/db/stored-json";
import { classLabel, money } from "../verdicts/words";

/**
 * The CSV's cells for money at risk twice (contract shopify.refund.exposure, decision 028): what a
 * refund's Exposure row says now. Its status is the latest judgement, not a final verdict, so the
 * file says what the app knew when it was downloaded.
 */

/** What the CSV reads of a page's exposures, in one query. */
export const EXPOSURE_FACTS = { operationId: true, status: true, reasons: true, classes: true, atRisk: true, currency: true } as const;

export interface ExposureCells {
  status: string;
  reasons: string;
  classes: string;
  atRisk: string | null;
  currency: string | null;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The exposure's reasons as the engine names them, for scripts: "refunded_past_payment; store_credit_and_payment". */
export function exposureReasons(exposure: ExposureCells | undefined): string {
  return exposure ? (readStored(storedStrings, exposure.reasons) ?? []).join("; ") : "";
}

/**
 * For people: "At risk twice: $40.00, chargeback open", "Clear", "Not known" (the order could not
 * be read before the chargeback window closed), or nothing while the refund is not judged (not
 * verified, or its order not read yet).
 */
export function moneyAtRiskTwiceInWords(exposure: ExposureCells | undefined): string {
  if (exposure?.status === "VERIFIED") return "Clear";
  if (exposure?.status === "UNVERIFIABLE") return "Not known";
  if (exposure?.status !== "CONTRADICTED") return "";
  const amount = exposure.atRisk && exposure.currency ? [money(exposure.atRisk, exposure.currency)] : [];
  const classes = (readStored(storedStrings, exposure.classes) ?? []).map((c) => lowerFirst(classLabel(c)));
  return ["At risk twice", [...amount, ...classes].join(", ")].filter(Boolean).join(": ");
}

/** The exposure's columns in the refunds CSV: its latest judgement, its reasons, and the money at risk twice. */
export const EXPOSURE_CELLS: FollowUpCells<ExposureCells & { operationId: string }> = {
  rows: (db, shop, operationIds) => db.exposure.findMany({ where: { shop, operationId: { in: operationIds } }, select: EXPOSURE_FACTS }),
  raw: [
    ["exposure_status", (exposure) => exposure?.status],
    ["exposure_reasons", (exposure) => exposureReasons(exposure)],
    ["at_risk_amount", (exposure) => exposure?.atRisk],
    ["at_risk_currency", (exposure) => exposure?.currency],
  ],
  people: [["Money at risk twice", (exposure) => moneyAtRiskTwiceInWords(exposure)]],
};
