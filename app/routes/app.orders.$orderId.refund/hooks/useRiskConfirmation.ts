import { useState } from "react";
import { parseAmount } from "../../../lib/money/typed-amount";
import { isRiskCode, RISK_CODES, type RiskCode } from "../../../refunds/risk";
import { pastPaymentWarning } from "../../../refunds/risk-warnings";
import type { ActionResult, Order, RefundFormData } from "../types";

/**
 * "Yes, refund anyway": the risks of paying twice the refund under review runs (the order's, the
 * amount's past the payment, and any the server found since the page was read), and whether the
 * person confirmed them.
 */
export function useRiskConfirmation(order: Order, risks: RefundFormData["risks"], result: ActionResult, reviewMinor: bigint | null, amount: string) {
  // A yes holds for the risks it was given to, and for that amount: any change to them asks again.
  const [confirmedFor, setConfirmedFor] = useState<string | null>(null);
  const refusedFor = result && !result.ok && isRiskCode(result.code) && "risks" in result ? (result.risks ?? []) : [];
  const pastPayment = reviewMinor === null ? null : pastPaymentWarning(order, reviewMinor);
  // Past the payment depends on the amount under review; the order's risks are the page's and the server's latest answer.
  const needed: RiskCode[] = RISK_CODES.filter((code) =>
    code === "REFUNDED_PAST_PAYMENT" ? pastPayment !== null : risks.codes.includes(code) || refusedFor.includes(code),
  );
  const key = `${reviewMinor ?? ""} ${needed.join(",")}`;
  const confirmed = confirmedFor === key;
  const setConfirmed = (yes: boolean) => setConfirmedFor(yes ? key : null);

  // The amount being typed, before the confirmation opens: the page warns as soon as it would go past the payment.
  const typed = parseAmount(amount, order.currency);
  const typedPastPayment = typed.ok ? pastPaymentWarning(order, typed.minor) : null;
  return { needed, pastPayment, typedPastPayment, confirmed, setConfirmed };
}

export type RiskConfirmation = ReturnType<typeof useRiskConfirmation>;
