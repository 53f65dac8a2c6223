import { useEffect, useState } from "react";
import { AdminBlock, Badge, BlockStack, InlineStack, Link, ProgressIndicator, Text, reactExtension, useApi } from "@shopify/ui-extensions-react/admin";
import { blockView, type BlockView, type OrderRefundsResponse } from "./verdicts";

const TARGET = "admin.order-details.block.render";

export default reactExtension(TARGET, () => <RefundVerdicts />);

function RefundVerdicts() {
  const { data } = useApi(TARGET);
  const orderId = data.selected[0]?.id?.split("/").pop();
  const [view, setView] = useState<BlockView | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!orderId) return;
    // A relative URL goes to the app's backend, with the admin's ID token attached.
    fetch(`/app/api/orders/${orderId}/refunds`)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((body: OrderRefundsResponse) => setView(blockView(body, orderId)))
      .catch((e: Error) => setError(e.message));
  }, [orderId]);

  return (
    <AdminBlock title="Refund verdicts">
      {error ? (
        <Text>{`Refund Verifier could not load this order's refunds (${error}).`}</Text>
      ) : !view ? (
        <ProgressIndicator size="small-200" />
      ) : (
        <BlockStack gap="base">
          <Badge tone={view.tone}>{view.headline}</Badge>
          {view.rows.map((row) => (
            <InlineStack key={row.id} gap="base" blockAlignment="center">
              <Badge tone={row.tone}>{row.label}</Badge>
              <Text>{row.amount}</Text>
              <Link href={row.url}>Details</Link>
            </InlineStack>
          ))}
          {view.refundUrl ? <Link href={view.refundUrl}>Issue a refund from Refund Verifier</Link> : null}
        </BlockStack>
      )}
    </AdminBlock>
  );
}
