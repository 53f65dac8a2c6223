import { Form, Link as RemixLink, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, InlineStack, Text } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import { VerdictBadge, adminOrderUrl } from "../../../components/ui";
import type { Loader, Order, RefundFormData } from "../types";
import { ApprovalOfRecord, approvalBadgeOf } from "./ApprovalOfRecord";

/** What Shopify did with a refund issued here, in words (the record's status names it in the engine's). */
const STATUS = {
  created: { tone: "info", label: "Sent to Shopify" },
  succeeded: { tone: "success", label: "Refunded by Shopify" },
  failed: { tone: "critical", label: "Not refunded" },
} as const;

/** Outcomes a record's request words (ApprovalOfRecord): the record's own failure reason and detail would say it again, in UTC. */
const saidByItsRequest = (record: { shopifyOutcome: string }) => record.shopifyOutcome === "held" || record.shopifyOutcome === "not_sent";

/** The record's badge: the request's state for a refund over a limit, else what Shopify did with it. */
function RecordBadge({ record }: { record: RefundFormData["records"][number] }) {
  const badge = approvalBadgeOf(record) ?? STATUS[record.status as keyof typeof STATUS] ?? { tone: undefined, label: record.status };
  return <Badge tone={badge.tone}>{badge.label}</Badge>;
}

/** Every refund issued from the app on this order, with what Shopify answered and what can still be done. */
export function RefundAttempts({ order, records, busy }: { order: Order; records: RefundFormData["records"]; busy: boolean }) {
  // The shop's time zone, for the times a request says: the page's own data (the records may be newer, read again while one is checked).
  const { timeZone } = useLoaderData<Loader>();
  return (
    <SectionCard title="Refunds issued from the app">
      <a href={adminOrderUrl(order.legacyId)} target="_top">
        Open the order in Shopify admin
      </a>
      {records.length === 0 ? (
        <Text as="p" tone="subdued">
          None yet.
        </Text>
      ) : null}
      {records.map((record) => (
        <BlockStack key={record.id} gap="100">
          <div data-refund-record={record.sysId}>
            <InlineStack gap="200" blockAlign="center">
              <Text as="span" fontWeight="semibold">
                {record.sysId}
              </Text>
              <Text as="span">{`${record.amount} ${record.currency}`}</Text>
              {record.shopAmount && record.shopCurrency !== record.currency ? (
                <Text as="span" tone="subdued">{`(${record.shopAmount} ${record.shopCurrency})`}</Text>
              ) : null}
              <RecordBadge record={record} />
              {record.verdict && record.verdict.status !== "PENDING" ? <VerdictBadge status={record.verdict.status} /> : null}
              {/* Accepted and not judged yet: pending, or its check not opened yet (the worker opens it within seconds). */}
              {record.shopifyOutcome === "created" && (!record.verdict || record.verdict.status === "PENDING") ? (
                <Text as="span" tone="subdued">
                  Being checked…
                </Text>
              ) : null}
            </InlineStack>
          </div>
          {record.failureReason && !saidByItsRequest(record) ? (
            <Text as="p" variant="bodySm" tone="subdued">
              {record.failureReason}
            </Text>
          ) : null}
          <ApprovalOfRecord record={record} timeZone={timeZone} />
          {record.operationId ? <RemixLink to={`/app/refunds/${record.operationId}`}>Evidence</RemixLink> : null}
          {record.outcomeDetail && record.shopifyOutcome !== "refused" && !saidByItsRequest(record) ? (
            <Text as="p" variant="bodySm" tone="subdued">
              {record.outcomeDetail}
            </Text>
          ) : null}
          {record.shopifyOutcome === "unknown" || record.shopifyOutcome === "key_conflict" ? (
            <InlineStack gap="200">
              {record.shopifyOutcome === "unknown" ? (
                <RecordAction record={record} intent="resend" label={`Ask Shopify again about ${record.sysId}`} busy={busy} />
              ) : null}
              <RecordAction record={record} intent="settle" label={`Shopify admin shows no refund for ${record.sysId}`} busy={busy} />
            </InlineStack>
          ) : null}
        </BlockStack>
      ))}
    </SectionCard>
  );
}

function RecordAction({
  record,
  intent,
  label,
  busy,
}: {
  record: { id: string; revision: string };
  intent: "resend" | "settle";
  label: string;
  busy: boolean;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="recordId" value={record.id} />
      <input type="hidden" name="revision" value={record.revision} />
      <Button submit size="slim" loading={busy}>
        {label}
      </Button>
    </Form>
  );
}
