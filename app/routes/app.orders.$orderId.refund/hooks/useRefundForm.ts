import { useEffect, useState } from "react";
import { useSubmit } from "@remix-run/react";
import { toMinorUnits } from "../../../lib/money/currency";
import { overRefundMessage } from "../../../refunds/form";
import { parseAmount } from "../../../lib/money/typed-amount";
import { isRiskCode } from "../../../refunds/risk";
import type { ActionResult, Order, RefundFormData } from "../types";
import { useRiskConfirmation } from "./useRiskConfirmation";

export type Review = { amount: string; minor: bigint };

/**
 * The form's fields and its confirmation step: `openReview` checks the amount before the
 * confirmation opens, `send` submits what was confirmed.
 */
export function useRefundForm(order: Order, result: ActionResult, formToken: string, risks: RefundFormData["risks"]) {
  const submit = useSubmit();
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [notify, setNotify] = useState(false);
  const [amountError, setAmountError] = useState<string | undefined>();
  const [review, setReview] = useState<Review | null>(null);
  const [another, setAnother] = useState(false);
  const risk = useRiskConfirmation(order, risks, result, review?.minor ?? null, amount);

  // Each answer of the action once: a refund sent resets the form; a refused amount is shown on its field.
  useEffect(() => {
    if (!result) return;
    // Sent, or recorded and gone for approval: either way this form's refund is asked for, and the form starts afresh.
    if ((result.ok || result.code === "AWAITING_APPROVAL") && result.intent === "issue") {
      setAmount("");
      setNote("");
      setNotify(false);
      setAnother(false);
      setReview(null);
      setAmountError(undefined);
    } else if (!result.ok) {
      // A refund waiting for a second yes keeps its confirmation open, where that yes is asked.
      if (result.code !== "RECENT_REFUND" && !isRiskCode(result.code)) setReview(null);
      if ("fieldErrors" in result && result.fieldErrors?.amount) setAmountError(result.fieldErrors.amount);
    }
  }, [result]);

  const refundableMinor = toMinorUnits(order.refundable, order.currency) ?? 0n;
  const openReview = () => {
    const parsed = parseAmount(amount, order.currency);
    if (!parsed.ok) return setAmountError(parsed.message);
    if (parsed.minor > refundableMinor) return setAmountError(overRefundMessage(refundableMinor, order.currency, order.name));
    setAmountError(undefined);
    setAnother(false);
    setReview({ amount: parsed.amount, minor: parsed.minor });
  };
  const send = () => {
    if (!review) return;
    submit(
      {
        intent: "issue",
        amount: review.amount,
        note,
        formToken,
        ...(notify ? { notify: "on" } : {}),
        ...(another ? { confirmAnother: "yes" } : {}),
        ...(risk.confirmed && risk.needed.length ? { confirmRisk: risk.needed.join(",") } : {}),
      },
      { method: "post" },
    );
  };

  return {
    amount,
    setAmount,
    note,
    setNote,
    notify,
    setNotify,
    amountError,
    setAmountError,
    review,
    setReview,
    another,
    setAnother,
    risk,
    openReview,
    send,
  };
}

export type RefundFormState = ReturnType<typeof useRefundForm>;
