import { useEffect, useRef } from "react";
import { Form } from "@remix-run/react";
import { Badge, BlockStack, Button, EmptyState, InlineStack, Text } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import { Instant } from "../../../components/ui";
import type { AlertsActionResult } from "../../../screens/alert-settings.server";

interface Delivery {
  id: string;
  kind: string;
  channel: string;
  target: string;
  subject: string;
  body: string;
  eventCount: number;
  status: string;
  attempts: number;
  error: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

const STATUS = {
  pending: { label: "Waiting to send", tone: "info" },
  sending: { label: "Sending", tone: "info" },
  delivered: { label: "Delivered", tone: "success" },
  failed: { label: "Not delivered", tone: "critical" },
  uncertain: { label: "May not have arrived", tone: "warning" },
} as const;
const KINDS: Record<string, string> = {
  instant: "Alert",
  digest: "Daily digest",
  flow: "Flow trigger",
  test: "Test",
  approval: "Refund waiting for approval",
  "approval decision": "Refund request decided",
};
const CHANNELS: Record<string, string> = { email: "Email", slack: "Slack", flow: "Shopify Flow" };

/**
 * The answer to "Send again", where its button was (a resent message is waiting again, so its
 * button has gone): focused, so that a screen reader reads it and the keyboard's place is not lost.
 */
function ResendAnswer({ result }: { result: AlertsActionResult }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), [result]);
  return (
    <p ref={ref} tabIndex={-1} data-answer>
      <Text as="span" tone={result.ok ? "success" : "critical"}>
        {result.ok ? result.message : result.fieldErrors.form}
      </Text>
    </p>
  );
}

/** Every message the app sent or tried to send for this shop: what, to whom, when, and delivered or why not. */
export function DeliveryLog({ deliveries, timeZone, result }: { deliveries: Delivery[]; timeZone: string; result: AlertsActionResult | undefined }) {
  return (
    <SectionCard title="Delivery log">
      {!deliveries.length && (
        <EmptyState heading="Nothing sent yet" image="">
          When a refund needs a person, the alert, digest or Flow trigger appears here with whether it was delivered.
        </EmptyState>
      )}
      {deliveries.map((delivery) => {
        const status = STATUS[delivery.status as keyof typeof STATUS] ?? { label: delivery.status, tone: undefined };
        return (
          <div key={delivery.id} data-delivery={delivery.id}>
            <BlockStack gap="100">
              <InlineStack gap="200" blockAlign="center" wrap>
                <Badge tone={status.tone}>{status.label}</Badge>
                <Text as="span" fontWeight="semibold">
                  {KINDS[delivery.kind] ?? delivery.kind} · {CHANNELS[delivery.channel] ?? delivery.channel}
                </Text>
                <Text as="span" tone="subdued" variant="bodySm">
                  <Instant iso={delivery.deliveredAt ?? delivery.createdAt} timeZone={timeZone} /> · to {delivery.target}
                  {delivery.eventCount > 1 ? ` · ${delivery.eventCount} refunds` : ""}
                </Text>
              </InlineStack>
              <Text as="p">{delivery.subject}</Text>
              {delivery.error && delivery.status !== "delivered" && (
                <Text as="p" tone={delivery.status === "pending" ? "subdued" : "critical"}>
                  {delivery.error}
                  {delivery.attempts > 1 ? ` (${delivery.attempts} tries)` : ""}
                </Text>
              )}
              <details>
                <summary>Message</summary>
                <pre style={{ whiteSpace: "pre-wrap", fontSize: 12 }}>{delivery.body}</pre>
              </details>
              {result?.intent === "resend" && result.deliveryId === delivery.id && <ResendAnswer result={result} />}
              {(delivery.status === "failed" || delivery.status === "uncertain") && (
                <Form method="post">
                  <input type="hidden" name="intent" value="resend" />
                  <input type="hidden" name="id" value={delivery.id} />
                  <Button submit size="slim">
                    Send again
                  </Button>
                </Form>
              )}
            </BlockStack>
          </div>
        );
      })}
    </SectionCard>
  );
}
