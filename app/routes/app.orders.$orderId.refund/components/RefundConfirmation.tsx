import { Banner, BlockStack, Checkbox, Modal, Text } from "@shopify/polaris";
import { formatMoney } from "../../../lib/money/currency";
import { gatewayLabel, splitOverSources } from "../../../refunds/form";
import { isRiskCode } from "../../../refunds/risk";
import { riskSummary } from "../../../refunds/risk-warnings";
import type { ActionResult, Order, RefundFormData } from "../types";
import type { RefundFormState } from "../hooks/useRefundForm";

interface Props {
  order: Order;
  sources: RefundFormData["sources"];
  recentRefund: RefundFormData["recentRefund"];
  result: ActionResult;
  form: RefundFormState;
  busy: boolean;
}

/** The last look before Shopify is asked: how much, to which payments, and a second yes after a recent refund or on money at risk twice. */
export function RefundConfirmation({ order, sources, recentRefund, result, form, busy }: Props) {
  const { review, setReview, note, notify, another, setAnother, risk, send } = form;
  const money = (minor: bigint) => formatMoney(minor, order.currency);
  const parts = review ? splitOverSources(sources, review.minor, order.currency) : [];
  const needsAnother = Boolean(recentRefund) || (result?.ok === false && result.code === "RECENT_REFUND");
  const riskRefusal = result?.ok === false && isRiskCode(result.code) ? result.message : null;
  return (
    <Modal
      open={Boolean(review)}
      onClose={() => setReview(null)}
      title={review ? `Refund ${money(review.minor)} on ${order.name}?` : "Confirm the refund"}
      primaryAction={{
        content: review ? `Refund ${money(review.minor)} ${order.currency}` : "Refund",
        destructive: true,
        onAction: send,
        loading: busy,
        disabled: busy || (needsAnother && !another) || (risk.needed.length > 0 && !risk.confirmed),
      }}
      secondaryActions={[{ content: "Cancel", onAction: () => setReview(null), disabled: busy }]}
    >
      {review ? (
        <Modal.Section>
          <BlockStack gap="300">
            {result?.ok === false && result.code === "RECENT_REFUND" ? <Banner tone="warning" title={result.message} /> : null}
            <Text as="p">{`${money(review.minor)} ${order.currency} goes back to the customer of ${order.name}. Shopify cannot undo a refund.`}</Text>
            <BlockStack gap="100">
              <Text as="h3" variant="headingSm">
                Where the money goes
              </Text>
              <ul data-refund-destinations>
                {parts.map((part) => (
                  <li key={part.gateway}>{`${money(part.minor)} ${order.currency} to the ${gatewayLabel(part.gateway)} payment (${part.gateway})`}</li>
                ))}
              </ul>
            </BlockStack>
            <Text as="p" tone="subdued">
              {notify ? "The customer is notified by email." : "The customer is not notified."}
              {note.trim() ? ` Note: ${note.trim()}` : ""}
            </Text>
            {needsAnother ? (
              <BlockStack gap="200">
                {result?.ok === false && result.code === "RECENT_REFUND" ? null : (
                  <Banner tone="warning" title={recentRefund?.message ?? "This order was refunded minutes ago."} />
                )}
                <Checkbox
                  label={`Yes, another refund on ${order.name}`}
                  helpText="This order was refunded in the last 10 minutes. Tick this only if the customer is owed a second refund."
                  checked={another}
                  onChange={setAnother}
                />
              </BlockStack>
            ) : null}
            {risk.needed.length ? (
              <BlockStack gap="200">
                <Banner tone="warning" title={riskRefusal ?? riskSummary(risk.needed)}>
                  {risk.pastPayment ? <p>{risk.pastPayment.lines[0]}</p> : null}
                </Banner>
                <Checkbox
                  label="Yes, refund anyway"
                  helpText="Tick this only if you checked the order in Shopify admin and the customer is owed this refund as well."
                  checked={risk.confirmed}
                  onChange={risk.setConfirmed}
                />
              </BlockStack>
            ) : null}
          </BlockStack>
        </Modal.Section>
      ) : null}
    </Modal>
  );
}
