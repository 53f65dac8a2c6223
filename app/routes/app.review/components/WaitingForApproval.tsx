import { useState } from "react";
import { BlockStack, Box, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { Instant, age } from "../../../components/ui";
import type { ReviewData } from "../types";

/** Requests shown before "Show all": on a phone, more would push the queue's own items off the first screens. */
const FIRST = 5;

type Request = ReviewData["waiting"][number];

function WaitingRequest({ request, now, timeZone, smDown }: { request: Request; now: string; timeZone: string; smDown: boolean }) {
  return (
    <Box paddingBlockStart="300" borderBlockStartWidth="025" borderColor="border-secondary">
      <div data-approval-request={request.id}>
        <InlineStack align="space-between" blockAlign="center" gap="300">
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm">
              {`${request.amount} ${request.currency} on ${request.orderName}`}
            </Text>
            <Text as="p">{request.limits}</Text>
            <Text as="p" variant="bodySm" tone="subdued">
              {`${request.sysId} · asked by ${request.askedBy} ${age(request.askedAt, now)}, on `}
              <Instant iso={request.askedAt} timeZone={timeZone} />
              {" · expires "}
              <Instant iso={request.expiresAt} timeZone={timeZone} />
            </Text>
          </BlockStack>
          <div style={smDown ? { width: "100%" } : undefined}>
            <Button url={`/app/approvals/${request.id}`} size="large" fullWidth={smDown} accessibilityLabel={`Open the request for ${request.sysId}`}>
              Open the request
            </Button>
          </div>
        </InlineStack>
      </div>
    </Box>
  );
}

/**
 * Refunds over the shop's limits that wait for an approver, above the refunds that need review:
 * they expire in a day, and nothing was sent to Shopify. Nothing at all when none waits.
 */
export function WaitingForApproval({ waiting, now, timeZone, smDown }: { waiting: ReviewData["waiting"]; now: string; timeZone: string; smDown: boolean }) {
  const [all, setAll] = useState(false);
  if (!waiting.length) return null;
  const shown = all ? waiting : waiting.slice(0, FIRST);
  return (
    <section aria-labelledby="waiting-for-approval" data-waiting-for-approval="">
      <Card>
        <BlockStack gap="300">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd" id="waiting-for-approval">
              {`Waiting for approval (${waiting.length})`}
            </Text>
            <Text as="p" tone="subdued">
              Refunds over the shop's limits. Nothing was sent to Shopify: each waits for the account owner or an approver, never the person who asked, and
              expires a day after it was asked for.
            </Text>
          </BlockStack>
          {shown.map((request) => (
            <WaitingRequest key={request.id} request={request} now={now} timeZone={timeZone} smDown={smDown} />
          ))}
          {waiting.length > FIRST && !all ? (
            <InlineStack>
              <Button variant="plain" onClick={() => setAll(true)}>{`Show all ${waiting.length} requests`}</Button>
            </InlineStack>
          ) : null}
        </BlockStack>
      </Card>
    </section>
  );
}
