import { InlineStack, Link, Text } from "@shopify/polaris";
import { VerdictBadge, adminOrderUrl, age, refundFormUrl } from "../../../components/ui";
import { formatInstant } from "../../../lib/time/format";
import type { Row } from "../types";
import { orderLabel, upperFirst } from "../../../verdicts/words";

/** Links inside a clickable row must not also trigger the row's own click. */
function Own({ children }: { children: React.ReactNode }) {
  return (
    <span onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()} role="presentation">
      {children}
    </span>
  );
}

export function OrderLink({ row }: { row: Row }) {
  return (
    <Own>
      <span data-refund-link={row.id}>
        <Link url={`/app/refunds/${row.id}`} removeUnderline monochrome>
          <Text as="span" fontWeight="semibold">
            {upperFirst(orderLabel(row))}
          </Text>
        </Link>
      </span>
    </Own>
  );
}

export function RowLinks({ row }: { row: Row }) {
  return (
    <Own>
      <InlineStack gap="300" wrap>
        <Link url={adminOrderUrl(row.orderId)} target="_top" accessibilityLabel={`Order in admin: ${orderLabel(row)}`}>
          Order in admin
        </Link>
        <Link url={refundFormUrl(row.orderId)} accessibilityLabel={`Refund ${orderLabel(row)} again`}>
          Refund
        </Link>
      </InlineStack>
    </Own>
  );
}

export function Amount({ row, align }: { row: Row; align?: "end" }) {
  return (
    <>
      <Text as="span" alignment={align} numeric>
        {row.amountDisplay ? `${row.amountDisplay} ${row.currency ?? ""}` : "—"}
      </Text>
      {row.shopAmount ? (
        <Text as="span" alignment={align} numeric variant="bodySm" tone="subdued">
          {`${row.shopAmount} ${row.shopCurrency} in shop money`}
        </Text>
      ) : null}
    </>
  );
}

export function Verdict({ row }: { row: Row }) {
  return (
    <>
      <VerdictBadge status={row.status} />
      {row.correlation === "fingerprint" ? (
        <Text as="p" variant="bodySm" tone="subdued">
          matched by order and amount only
        </Text>
      ) : null}
    </>
  );
}

export function Age({ row, now, timeZone }: { row: Row; now: string; timeZone: string }) {
  return (
    <span title={formatInstant(row.startedAt, timeZone)}>
      <Text as="span">{age(row.startedAt, now)}</Text>
    </span>
  );
}
