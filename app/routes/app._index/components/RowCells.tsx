import { BlockStack, IndexTable, InlineStack, Text } from "@shopify/polaris";
import { ReviewBadge, age } from "../../../components/ui";
import { ServerRendered } from "../../../components/ServerRendered";
import { madeCell } from "../../../verdicts/words";
import type { Row } from "../types";
import { Age, Amount, OrderLink, RowLinks, Verdict } from "./RowParts";

/**
 * A row on a narrow screen: the order, amount, verdict, reason and links in one block. Not an
 * IndexTable.Cell: a condensed row is an <li>, and a <td> in it is dropped by the browser's HTML
 * parser, so the page the server sent could not be hydrated (React threw it away and rendered the
 * whole page again on the phone).
 */
export function CondensedCell({ row, now }: { row: Row; now: string }) {
  // Only text and links: kept as the server wrote it when the page hydrates (a phone built 25 rows of Polaris components for nothing).
  return (
    <ServerRendered version={JSON.stringify([row, now])} data-condensed-row={row.id} style={{ padding: "var(--p-space-100) 0", width: "100%" }}>
      <BlockStack gap="100">
        <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
          <OrderLink row={row} />
          <div style={{ textAlign: "end" }}>
            <Amount row={row} align="end" />
          </div>
        </InlineStack>
        <InlineStack gap="200" blockAlign="center">
          <Verdict row={row} />
          {row.reviewState !== "none" ? <ReviewBadge state={row.reviewState} /> : null}
          <Text as="span" tone="subdued" variant="bodySm">
            {`${row.made} · ${age(row.startedAt, now)}`}
          </Text>
        </InlineStack>
        <div style={{ whiteSpace: "normal" }}>
          <Text as="p" variant="bodySm">
            {row.reasonText}
          </Text>
        </div>
        <RowLinks row={row} />
      </BlockStack>
    </ServerRendered>
  );
}

/** A row on a wide screen: one cell per heading. */
export function WideCells({ row, now, timeZone }: { row: Row; now: string; timeZone: string }) {
  return (
    <>
      <IndexTable.Cell>
        <OrderLink row={row} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Amount row={row} align="end" />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Verdict row={row} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <div style={{ maxWidth: 360, whiteSpace: "normal" }}>
          <Text as="span" variant="bodySm">
            {row.reasonText}
          </Text>
        </div>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {/* Wraps, as the reason does: "In Shopify admin by Dana Whitfield" on one line would squeeze the reason. */}
        <div style={{ maxWidth: 180, whiteSpace: "normal" }}>{madeCell(row.made)}</div>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Age row={row} now={now} timeZone={timeZone} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <ReviewBadge state={row.reviewState} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <RowLinks row={row} />
      </IndexTable.Cell>
    </>
  );
}
