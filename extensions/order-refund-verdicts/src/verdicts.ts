// The app's own answer type and verdict words: both modules import nothing, so the bundle takes only these few lines.
import type { OrderRefundsResponse } from "../../../app/verdicts/order-block";
import { VERDICT_LABELS, VERDICT_TONES } from "../../../app/verdicts/labels";

export type Tone = "success" | "critical" | "warning" | "info";

export interface BlockView {
  headline: string;
  tone: Tone;
  /** `made`: where the refund was made and by whom, as the app words it (empty from an app that does not say). */
  rows: { id: string; label: string; amount: string; tone: Tone; reason: string; made: string; url: string }[];
  /** The app's refund form for this order; none while a duplicate says not to refund again. */
  refundUrl: string | null;
}

const TONES: Record<string, Tone> = VERDICT_TONES;

/** The block's content: the worst verdict first in the headline, one row per refund. */
export function blockView(response: OrderRefundsResponse, orderId?: string): BlockView {
  const refundUrl = orderId && !response.doNotRetry ? `app:app/orders/${orderId}/refund` : null;
  const rows = response.refunds.map((refund) => ({
    id: refund.id,
    label: VERDICT_LABELS[refund.status] ?? refund.status,
    amount: refund.amount && refund.currency ? `${refund.amount} ${refund.currency}` : "",
    tone: TONES[refund.status] ?? "info",
    reason: refund.atRiskTwice ?? (refund.correlation === "fingerprint" ? `${refund.reasonText} (matched by order and amount only)` : refund.reasonText),
    made: refund.made ?? "",
    // `app:` opens a path of this app inside the admin.
    url: `app:app/refunds/${refund.id}`,
  }));
  if (rows.length === 0) return { headline: "No refunds on this order", tone: "info", rows, refundUrl };
  const problems = response.refunds.filter((r) => ["CONTRADICTED", "FAILED", "UNVERIFIABLE"].includes(r.status));
  const pending = response.refunds.filter((r) => r.status === "PENDING");
  if (response.doNotRetry) return { headline: "Do not refund this order again: Shopify holds a duplicate refund", tone: "critical", rows, refundUrl };
  // A refund Shopify recorded perfectly that can still cost the shop twice (a chargeback on the order, more back than paid).
  const atRisk = response.refunds.find((r) => r.atRiskTwice);
  if (atRisk?.atRiskTwice) return { headline: atRisk.atRiskTwice, tone: "critical", rows, refundUrl };
  if (problems.length) {
    return {
      headline: `${problems.length} of ${rows.length} refund${rows.length === 1 ? "" : "s"} need${problems.length === 1 ? "s" : ""} a person`,
      tone: "critical",
      rows,
      refundUrl,
    };
  }
  if (pending.length) return { headline: `Checking ${pending.length} refund${pending.length === 1 ? "" : "s"} with Shopify`, tone: "info", rows, refundUrl };
  return { headline: rows.length === 1 ? "Refund verified" : `All ${rows.length} refunds verified`, tone: "success", rows, refundUrl };
}
