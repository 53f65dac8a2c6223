import { Link as RemixLink } from "@remix-run/react";
import { BlockStack, Text } from "@shopify/polaris";
import { Instant } from "../../../components/ui";
import type { RefundFormData } from "../types";

type Record = RefundFormData["records"][number];

const DECIDED = {
  approved: { tone: "info", label: "Approved" },
  declined: { tone: "critical", label: "Declined" },
  expired: { tone: undefined, label: "Expired" },
} as const;

/** What a record's badge says when it went over a limit: its request's state, not "Sent to Shopify" or "Not refunded". */
export function approvalBadgeOf(record: Record): { tone: "attention" | "info" | "critical" | undefined; label: string } | null {
  const state = record.approval?.state;
  if (record.shopifyOutcome === "held") return !state || state === "waiting" ? { tone: "attention", label: "Waiting for approval" } : DECIDED[state];
  if (record.shopifyOutcome !== "not_sent") return null;
  return state === "declined" || state === "expired" ? DECIDED[state] : { tone: "critical", label: "Not sent" };
}

/**
 * A refund that went over one of the shop's limits, in the attempts list: waiting (since when, until
 * when, and its request), declined (by whom, when, and their reason), expired, or approved (by whom).
 * Times in the shop's time zone; a record settled without its request (the app stopped) says why.
 */
export function ApprovalOfRecord({ record, timeZone }: { record: Record; timeZone: string }) {
  const approval = record.approval;
  if (!approval) {
    return record.shopifyOutcome === "not_sent" && record.failureReason ? <Small>{record.failureReason}</Small> : null;
  }
  const at = (iso: string) => <Instant iso={iso} timeZone={timeZone} />;
  const requestLink = <RemixLink to={`/app/approvals/${approval.requestId}`}>{`Open the request for ${record.sysId}`}</RemixLink>;
  if (record.shopifyOutcome === "held" && approval.state === "waiting") {
    return (
      <BlockStack gap="100">
        <Small>{approval.over}</Small>
        <Small>
          {`Asked by ${approval.askedBy} on `}
          {at(approval.askedAt)}
          {". Nothing is refunded unless someone approves it by "}
          {at(approval.expiresAt)}
          {"."}
        </Small>
        {requestLink}
      </BlockStack>
    );
  }
  if (approval.state === "declined" && approval.decidedBy && approval.decidedAt) {
    return (
      <Small>
        {`Declined by ${approval.decidedBy} on `}
        {at(approval.decidedAt)}
        {`: ${withoutFullStop(approval.note ?? "no reason given")}. Nothing was refunded.`}
      </Small>
    );
  }
  if (approval.state === "expired") {
    return (
      <Small>
        {"Expired on "}
        {at(approval.expiresAt)}
        {": nobody approved it within a day. Nothing was refunded; ask again if it is still due."}
      </Small>
    );
  }
  // Approved: sent to Shopify (its outcome beside it), or settled as not sent when the app stopped before sending it.
  return (
    <BlockStack gap="100">
      {approval.decidedBy && approval.decidedAt ? (
        <Small>
          {`Approved by ${approval.decidedBy} on `}
          {at(approval.decidedAt)}
          {approval.note ? `: ${approval.note}` : ""}
        </Small>
      ) : null}
      {record.shopifyOutcome === "not_sent" && record.failureReason ? <Small>{record.failureReason}</Small> : null}
      {requestLink}
    </BlockStack>
  );
}

/** A person's reason, ended by the sentence around it. */
const withoutFullStop = (text: string) => text.trim().replace(/[.\s]+$/, "");

function Small({ children }: { children: React.ReactNode }) {
  return (
    <Text as="p" variant="bodySm" tone="subdued">
      {children}
    </Text>
  );
}
