import { memo, useState } from "react";
import { useFetcher, useRevalidator } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Link, Text, TextField } from "@shopify/polaris";
import { Instant, VerdictBadge, age } from "../../../components/ui";
import { ServerRendered } from "../../../components/ServerRendered";
import type { Action, Item } from "../types";

import { orderLabel, upperFirst, VERDICT_LABELS } from "../../../verdicts/words";
import { apart, duplicateGroupInWords } from "../../../verdicts/duplicates";

type ItemProps = { item: Item; now: string; timeZone: string };

/** Memoised, as the dashboard's table: typing in the search box does not render every item again. */
export const ReviewItem = memo(function ReviewItem({ item, now, timeZone }: ItemProps) {
  return (
    <div data-review-item={item.id}>
      <Card>
        <BlockStack gap="300">
          {/* What the item says is text and links: kept as the server wrote it when the page hydrates; the form below is hydrated. */}
          <ServerRendered version={JSON.stringify([item, now])}>
            <BlockStack gap="300">
              <ItemHeading item={item} now={now} timeZone={timeZone} />
              {item.pair ? <PairRefunds item={item} pair={item.pair} timeZone={timeZone} /> : <Text as="p">{item.reasonText}</Text>}
              {item.resolution ? (
                <Box background="bg-surface-secondary" padding="300" borderRadius="200">
                  <BlockStack gap="100">
                    <Text as="p" fontWeight="semibold">
                      {`Resolved by ${item.resolution.by} · `}
                      <Instant iso={item.resolution.at} timeZone={timeZone} />
                    </Text>
                    <Text as="p">{item.resolution.note ?? ""}</Text>
                  </BlockStack>
                </Box>
              ) : null}
            </BlockStack>
          </ServerRendered>
          {item.resolution ? null : <ResolveForm item={item} />}
        </BlockStack>
      </Card>
    </div>
  );
});

/** The order, the verdict and why the refund is here, its amount, and when it was made and checked. */
function ItemHeading({ item, now, timeZone }: ItemProps) {
  return (
    <InlineStack align="space-between" blockAlign="center" gap="200">
      <InlineStack gap="200" blockAlign="center">
        <Link url={`/app/refunds/${item.id}`}>
          <Text as="span" variant="headingSm">
            {upperFirst(orderLabel(item))}
          </Text>
        </Link>
        <VerdictBadge status={item.status} />
        {item.atRiskTwice ? <Badge tone="critical">At risk twice</Badge> : null}
        {item.overLimit ? <Badge tone="warning">Over a limit</Badge> : null}
        <Text as="span">{item.amountDisplay ? `${item.amountDisplay} ${item.currency ?? ""}` : ""}</Text>
      </InlineStack>
      {/* The refund's own date first: a history item decided minutes ago may be a refund of two months ago. */}
      <span data-refund-made>
        <Text as="span" tone="subdued" variant="bodySm">
          {"Refund made "}
          <Instant iso={item.startedAt} timeZone={timeZone} />
          {item.decidedAt ? ` · checked ${age(item.decidedAt, now)}` : ""}
          {item.pair ? "" : ` · ${item.made}`}
        </Text>
      </span>
    </InlineStack>
  );
}

/** A duplicate pair's item: what the refunds have in common, then each with its link, its time and the gap to the one before. */
function PairRefunds({ item, pair, timeZone }: { item: Item; pair: NonNullable<Item["pair"]>; timeZone: string }) {
  return (
    <BlockStack gap="100">
      <Text as="p">
        {duplicateGroupInWords({
          count: pair.length,
          amount: `${item.amountDisplay ?? "one amount"} ${item.currency ?? ""}`.trim(),
          where: orderLabel(item),
          repeatsEarlier: item.pairRepeatsEarlier,
        })}
      </Text>
      <ul style={{ margin: 0, paddingInlineStart: 20 }} aria-label={`The refunds on ${orderLabel(item)}`}>
        {pair.map((refund, i, refunds) => (
          <li key={refund.id} data-pair-refund={refund.id}>
            <Link url={`/app/refunds/${refund.id}`}>{`Refund of ${refund.amountDisplay ?? "an unknown amount"} ${refund.currency ?? ""}`.trim()}</Link>
            {" made "}
            <Instant iso={refund.startedAt} timeZone={timeZone} />
            {/* Made seconds apart, two refunds show the same minute: the gap tells them apart. */}
            {i > 0 ? `, ${apart(Math.round((Date.parse(refund.startedAt) - Date.parse(refunds[i - 1].startedAt)) / 1000))} after the one above` : ""}
            {` · ${refund.made} · ${VERDICT_LABELS[refund.status] ?? refund.status}: ${refund.reasonText}`}
          </li>
        ))}
      </ul>
    </BlockStack>
  );
}

/** The note and the Resolve button; a resolve that lost the race says who won and keeps the note typed. */
function ResolveForm({ item }: { item: Item }) {
  const fetcher = useFetcher<Action>();
  const revalidator = useRevalidator();
  const [note, setNote] = useState("");
  const result = fetcher.data;
  const lost = result && !result.ok && result.status === 409;
  const what = item.pair ? `${item.pair.length} refunds` : "refund";
  return (
    <>
      {lost ? (
        <Banner
          tone="warning"
          title={result.resolvedBy ? `${result.resolvedBy} resolved ${item.pair ? "these refunds" : "this refund"} first` : result.message}
          action={{ content: "Show the current queue", onAction: () => revalidator.revalidate() }}
        >
          <BlockStack gap="100">
            {result.resolvedNote ? <p>{`Their note: “${result.resolvedNote}”`}</p> : null}
            <p>Your note was not saved. It is still in the box below if you want to copy it to the refund's evidence page.</p>
          </BlockStack>
        </Banner>
      ) : result && !result.ok ? (
        <Banner tone="critical" title={result.message} />
      ) : null}
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="resolve" />
        <input type="hidden" name="id" value={item.id} />
        <input type="hidden" name="revision" value={item.revision} />
        <InlineStack gap="200" blockAlign="end" wrap={false}>
          <div style={{ flex: 1, minWidth: 0 }}>
            <TextField
              label={`Resolution note for the ${what} on ${orderLabel(item)}`}
              labelHidden
              placeholder="What you checked and what you did"
              name="note"
              value={note}
              onChange={setNote}
              autoComplete="off"
            />
          </div>
          <Button
            submit
            variant="primary"
            loading={fetcher.state !== "idle"}
            disabled={Boolean(lost)}
            accessibilityLabel={`Resolve the ${what} on ${orderLabel(item)}`}
          >
            Resolve
          </Button>
        </InlineStack>
      </fetcher.Form>
    </>
  );
}
