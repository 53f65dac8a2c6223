import { Badge, BlockStack, Link, Text } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import type { LimitsAudit } from "../../../guardrails/audit.server";
import { Fact } from "./Fact";
import { Instant } from "./Instant";

const DECIDED_BADGE = {
  approved: { tone: "success", label: "Approved" },
  declined: { tone: "critical", label: "Declined" },
  expired: { tone: undefined, label: "Expired" },
  waiting: { tone: "attention", label: "Waiting for approval" },
} as const;

/**
 * Refund limits on the evidence page (decision 030), the audit trail a support agent or the owner
 * reads: for a refund issued after an approval, who asked and when, the limits it went over, who
 * approved it, when, their note and the limits in force then; for a refund made outside the app
 * that went over a limit, the limit in words and who made it.
 */
export function LimitsSection({ limits, times }: { limits: LimitsAudit; times: Record<string, string> }) {
  const { approval, overLimit } = limits;
  const at = (iso: string) => <Instant iso={iso} times={times} />;
  return (
    <div data-limits-section="">
      <SectionCard
        title="Refund limits"
        badge={
          <>
            {approval ? <Badge tone={DECIDED_BADGE[approval.state].tone}>{DECIDED_BADGE[approval.state].label}</Badge> : null}
            {overLimit ? <Badge tone="warning">Over a limit</Badge> : null}
          </>
        }
      >
        {overLimit ? <Text as="p">{overLimit.sentence}</Text> : null}
        {approval ? (
          <BlockStack gap="300">
            <Text as="p">It went over the shop's limits, so it waited for an approver before it was sent to Shopify.</Text>
            <Fact label="Asked by">
              <Text as="span">
                {`${approval.askedBy}, `}
                {at(approval.askedAt)}
              </Text>
            </Fact>
            <Fact label="Limits it went over">
              <Text as="span">{approval.over}</Text>
            </Fact>
            {approval.decidedBy && approval.decidedAt ? (
              <Fact label={approval.state === "declined" ? "Declined by" : "Approved by"}>
                <Text as="span">
                  {`${approval.decidedBy}, `}
                  {at(approval.decidedAt)}
                </Text>
              </Fact>
            ) : null}
            {approval.decidedBy ? (
              <Fact label={approval.state === "declined" ? "Their reason" : "Their note"}>
                <Text as="span" tone={approval.note ? undefined : "subdued"}>
                  {approval.note ?? "None given."}
                </Text>
              </Fact>
            ) : null}
            {approval.limitsWhenDecided ? (
              <Fact label="Limits in force when it was approved">
                <Text as="span">{approval.limitsWhenDecided}</Text>
              </Fact>
            ) : null}
            <Link url={`/app/approvals/${approval.requestId}`}>The request for approval</Link>
          </BlockStack>
        ) : null}
      </SectionCard>
    </div>
  );
}
