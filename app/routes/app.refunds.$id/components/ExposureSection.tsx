import type { ReactNode } from "react";
import { Form, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, InlineStack, Text } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import type { ExposureSection as ExposureSectionData } from "../../../exposure/shown.server";
import { ADD_PROOF_INTENT, proofText, type DisputeProofView } from "../../../exposure/dispute-proof";
import { CopyButton } from "./CopyButton";
import { Instant } from "./Instant";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <div>{children}</div>
    </BlockStack>
  );
}

/** The proof sent from the app, or why it cannot be: the button where the shop granted it, else the permission it needs; then Shopify's answer. */
function SendProof({ view, times }: { view: DisputeProofView | null; times: Record<string, string> }) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === ADD_PROOF_INTENT;
  if (!view) return null;
  switch (view.kind) {
    case "sendable":
      return (
        <Form method="post">
          <input type="hidden" name="intent" value={ADD_PROOF_INTENT} />
          <input type="hidden" name="revision" value={view.revision} />
          <input type="hidden" name="dispute" value={view.disputeId} />
          <BlockStack gap="100">
            <InlineStack>
              <Button submit variant="primary" loading={sending}>
                Add the refund&apos;s proof to the dispute
              </Button>
            </InlineStack>
            <Text as="p" tone="subdued">
              Saves it in the dispute&apos;s evidence in Shopify, after anything already written there. It does not submit the evidence: you do that in Shopify
              admin, with everything else the bank asks for.
            </Text>
          </BlockStack>
        </Form>
      );
    case "not_granted":
      return (
        <Text as="p" tone="subdued">
          {`The app cannot add it to the dispute for you: that needs the permission to ${view.missing.length > 1 ? "read Shopify Payments disputes and " : ""}write their evidence (${view.missing.join(", ")}), which this shop has not granted the app. Copy it and add it to the dispute's evidence in Shopify admin (Orders, the order, the chargeback).`}
        </Text>
      );
    case "sending":
      return (
        <Text as="p">
          {"Being added to the dispute's evidence since "}
          <Instant iso={view.since} times={times} />.
        </Text>
      );
    case "added":
      return (
        <div data-proof-answer="">
          <Text as="p" fontWeight="semibold">
            {"Added to the dispute's evidence on "}
            <Instant iso={view.at} times={times} />.
          </Text>
          <Text as="p" tone="subdued">
            Submit the evidence in Shopify admin (Orders, the order, the chargeback): the app does not submit it.
          </Text>
        </div>
      );
    case "refused":
      return (
        <div data-proof-answer="">
          <Text as="p" tone="critical">
            {view.answer}
          </Text>
          <Text as="p" tone="subdued">
            {"Tried on "}
            <Instant iso={view.at} times={times} />.
          </Text>
        </div>
      );
  }
}

/**
 * Money at risk twice (contract shopify.refund.exposure): clear, or at risk with what a merchant
 * does about it, the order's disputes, and the refund's proof ready to paste into a dispute.
 */
export function ExposureSection({ exposure, times }: { exposure: ExposureSectionData; times: Record<string, string> }) {
  const { state, title, tone, reasons, atRisk, disputes, detailsGranted, proof, disputeProof } = exposure;
  const proofLines = proofText(proof, times);
  return (
    <div data-exposure-section="">
      <SectionCard title="Money at risk twice" badge={<Badge tone={tone}>{title}</Badge>}>
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
        {(state === "at_risk" && disputes.some((d) => d.open)) || disputeProof?.kind === "added" || disputeProof?.kind === "refused" ? (
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
                <CopyButton text={proofLines} label="Copy the proof" accessibilityLabel="Copy the proof of this refund for the dispute" />
              </InlineStack>
              {disputeProof ? (
                <SendProof view={disputeProof} times={times} />
              ) : (
                <Text as="p" tone="subdued">
                  Add it to the dispute&apos;s evidence in Shopify admin (Orders, the order, the chargeback).
                </Text>
              )}
            </BlockStack>
          </Box>
        ) : null}
        {state === "clear" && proof.refundedAt ? (
          <Text as="p" tone="subdued">
            Refunded on <Instant iso={proof.refundedAt} times={times} />; the app looks again when a chargeback comes.
          </Text>
        ) : null}
      </SectionCard>
    </div>
  );
}
