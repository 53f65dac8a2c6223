import { Form, useNavigation } from "@remix-run/react";
import { BlockStack, Box, Button, InlineStack, Link, Text, TextField } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import { ReviewBadge, adminOrderUrl } from "../../../components/ui";
import { orderLabel } from "../../../verdicts/words";
import type { Detail } from "../types";
import { Instant } from "./Instant";

/**
 * The refund's actions: the order in Shopify admin, another refund on it (not after a duplicate),
 * a re-check while it is pending or unverifiable, and its review: the resolve form (its note kept
 * by the page, so a lost race shows it to copy) resolving its duplicate's other refunds with it.
 */
export function RefundActions(props: { detail: Detail; doNotRetry: boolean; note: string; setNote: (note: string) => void; noteError?: string }) {
  const { detail, doNotRetry } = props;
  const { refund } = detail;
  const navigation = useNavigation();
  return (
    <SectionCard title="Actions" gap="200">
      <Link url={adminOrderUrl(refund.orderId)} target="_top">
        Open the order in Shopify admin
      </Link>
      {doNotRetry ? null : <Link url={`/app/orders/${refund.orderId}/refund`}>{`Issue a refund on ${orderLabel(refund)}`}</Link>}
      {refund.status === "PENDING" || refund.status === "UNVERIFIABLE" ? (
        <Form method="post">
          <input type="hidden" name="intent" value="recheck" />
          <input type="hidden" name="revision" value={refund.revision} />
          <Button submit loading={navigation.state === "submitting"}>
            Re-check now
          </Button>
        </Form>
      ) : null}
      <InlineStack gap="200" blockAlign="center">
        <Text as="span">Review:</Text>
        <ReviewBadge state={refund.reviewState} />
      </InlineStack>
      {refund.reviewState === "open" ? <ResolveForm {...props} /> : null}
    </SectionCard>
  );
}

function ResolveForm({ detail, note, setNote, noteError }: { detail: Detail; note: string; setNote: (note: string) => void; noteError?: string }) {
  const { refund, pairedWith, times } = detail;
  const navigation = useNavigation();
  return (
    <Form method="post">
      <BlockStack gap="200">
        <input type="hidden" name="intent" value="resolve" />
        <input type="hidden" name="revision" value={refund.revision} />
        {pairedWith.length ? (
          <Text as="p">
            {`Resolving this refund resolves the other refund${pairedWith.length === 1 ? "" : "s"} of its duplicate on ${orderLabel(refund)} too, in the review queue one item: `}
            {pairedWith.map((other, i) => (
              <span key={other.id}>
                {i > 0 ? "; " : ""}
                <Link url={`/app/refunds/${other.id}`}>{`the refund of ${other.amountDisplay ?? "an unknown amount"} ${other.currency ?? ""}`.trim()}</Link>
                {" made "}
                <Instant iso={other.startedAt} times={times} />
              </span>
            ))}
            .
          </Text>
        ) : null}
        <TextField
          label="Resolution note"
          name="note"
          value={note}
          onChange={setNote}
          multiline={3}
          autoComplete="off"
          error={noteError}
          helpText="Say what you checked and what you did; it stays in the audit trail."
        />
        <Box>
          <Button submit variant="primary" loading={navigation.state === "submitting"}>
            Resolve
          </Button>
        </Box>
      </BlockStack>
    </Form>
  );
}
