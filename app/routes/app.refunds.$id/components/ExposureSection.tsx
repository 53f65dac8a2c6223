import { Badge, BlockStack, Box, Card, InlineStack, Text } from "@shopify/polaris";
import type { ExposureView } from "../../../exposure/view";
import { CopyButton } from "./CopyButton";
import { Fact } from "./Fact";
import { Instant } from "./Instant";

export type ExposureSectionData = ExposureView & {
  proof: { amount: string | null; refundedAt: string; references: string[]; payout: string | null };
};

/** The lines a merchant pastes into a dispute's evidence: this refund's proof. */
function proofText(proof: ExposureSectionData["proof"], times: Record<string, string>): string {
  return [
    `Refunded: ${proof.amount ?? "see the order"} on ${times[proof.refundedAt] ?? proof.refundedAt}`,
    proof.references.length ? `Card reference (ARN): ${proof.references.join(", ")}` : null,
    proof.payout ? `Shopify Payments payout: ${proof.payout}` : null,
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * Money at risk twice (contract shopify.refund.exposure): clear, or at risk with what a merchant
 * does about it, the order's disputes, and the refund's proof ready to paste into a dispute.
 */
export function ExposureSection({ exposure, times }: { exposure: ExposureSectionData; times: Record<string, string> }) {
  const { state, title, tone, reasons, atRisk, disputes, detailsGranted, proof } = exposure;
  const proofLines = proofText(proof, times);
  return (
    <div data-exposure-section="">
      <Card>
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center" wrap>
            <Text as="h2" variant="headingMd">
              Money at risk twice
            </Text>
            <Badge tone={tone}>{title}</Badge>
          </InlineStack>
          {atRisk ? <Text as="p" fontWeight="semibold">{`${atRisk} could be paid twice.`}</Text> : null}
          {reasons.map((reason) => (
            <Text as="p" key={reason}>
              {reason}
            </Text>
          ))}
          {disputes.length ? (
            <Fact label={disputes.length > 1 ? "Disputes on this order" : "Dispute on this order"}>
              <BlockStack gap="100">
                {disputes.map((d) => (
                  <Text as="p" key={d.id}>
                    {[d.status, d.amount, d.reason, d.open && d.evidenceDueBy ? `answer by ${times[d.evidenceDueBy] ?? d.evidenceDueBy}` : null]
                      .filter(Boolean)
                      .join(" · ")}
                  </Text>
                ))}
              </BlockStack>
            </Fact>
          ) : null}
          {disputes.length && !detailsGranted ? (
            <Text as="p" tone="subdued">
              Shopify shows the app a dispute&apos;s amount, reason and due date only with the read_shopify_payments_disputes permission.
            </Text>
          ) : null}
          {state === "at_risk" && disputes.some((d) => d.open) ? (
            <Box background="bg-surface-secondary" padding="300" borderRadius="200">
              <BlockStack gap="200">
                <Text as="h3" variant="headingSm">
                  The refund&apos;s proof, for the dispute
                </Text>
                <Text as="p">
                  <span style={{ whiteSpace: "pre-line" }} data-proof="">
                    {proofLines}
                  </span>
                </Text>
                <InlineStack>
                  <CopyButton text={proofLines} label="Copy the proof" accessibilityLabel="Copy the refund's proof for the dispute" />
                </InlineStack>
                <Text as="p" tone="subdued">
                  Add it to the dispute&apos;s evidence in Shopify admin (Orders, the order, the chargeback).
                </Text>
              </BlockStack>
            </Box>
          ) : null}
          {state === "clear" && proof.refundedAt ? (
            <Text as="p" tone="subdued">
              Refunded on <Instant iso={proof.refundedAt} times={times} />; the app looks again when a chargeback comes.
            </Text>
          ) : null}
        </BlockStack>
      </Card>
    </div>
  );
}
