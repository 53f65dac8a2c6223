import { Form, Link as RemixLink } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { VerdictBadge, adminOrderUrl } from "../../../components/ui";
import type { Order, RefundFormData } from "../types";

/** What Shopify did with a refund issued here, in words (the record's status names it in the engine's). */
const STATUS = {
  created: { tone: "info", label: "Sent to Shopify" },
  succeeded: { tone: "success", label: "Refunded by Shopify" },
  failed: { tone: "critical", label: "Not refunded" },
} as const;

/** Every refund issued from the app on this order, with what Shopify answered and what can still be done. */
export function RefundAttempts({ order, records, busy }: { order: Order; records: RefundFormData["records"]; busy: boolean }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Refunds issued from the app
        </Text>
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
                <Badge tone={STATUS[record.status as keyof typeof STATUS]?.tone}>{STATUS[record.status as keyof typeof STATUS]?.label ?? record.status}</Badge>
                {record.verdict && record.verdict.status !== "PENDING" ? <VerdictBadge status={record.verdict.status} /> : null}
                {record.verdict?.status === "PENDING" ? (
                  <Text as="span" tone="subdued">
                    Being checked…
                  </Text>
                ) : null}
              </InlineStack>
            </div>
            {record.failureReason ? (
              <Text as="p" variant="bodySm" tone="subdued">
                {record.failureReason}
              </Text>
            ) : null}
            {record.operationId ? <RemixLink to={`/app/refunds/${record.operationId}`}>Evidence</RemixLink> : null}
            {record.outcomeDetail && record.shopifyOutcome !== "refused" ? (
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
      </BlockStack>
    </Card>
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
