/** @jsxImportSource preact */
// The pragma keeps the root type-check (React's JSX for the app) and the CLI's esbuild on Preact for this file alone.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { Api } from "@shopify/ui-extensions/admin.order-details.block.render";
import type { OrderRefundsResponse } from "../../../app/verdicts/order-block";
import { blockView, type BlockView } from "./verdicts";

// The admin provides `shopify` to the extension's worker; the CLI calls our default export from
// `shopify.extend("admin.order-details.block.render", …)` (API 2025-10 on), so this module never registers itself.
declare const shopify: Api;

export default async () => {
  render(<RefundVerdicts />, document.body);
};

type Load = { state: "loading" } | { state: "loaded"; view: BlockView } | { state: "failed"; error: string };

function RefundVerdicts() {
  const orderId = shopify.data.selected[0]?.id?.split("/").pop();
  const [load, setLoad] = useState<Load>({ state: "loading" });

  useEffect(() => {
    if (!orderId) return;
    // A relative URL goes to the app's backend (resolved against application_url), with the admin's ID token attached.
    fetch(`/app/api/orders/${orderId}/refunds`)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((body: OrderRefundsResponse) => setLoad({ state: "loaded", view: blockView(body, orderId) }))
      .catch((e: Error) => setLoad({ state: "failed", error: e.message }));
  }, [orderId]);

  return (
    <s-admin-block heading="Refund verdicts">
      {load.state === "failed" ? (
        <s-text>{`Refund Verifier could not load this order's refunds (${load.error}).`}</s-text>
      ) : load.state === "loading" ? (
        <s-spinner accessibilityLabel="Loading refund verdicts" size="base" />
      ) : (
        <s-stack direction="block" gap="base">
          <s-badge tone={load.view.tone}>{load.view.headline}</s-badge>
          {load.view.rows.map((row) => (
            <s-stack key={row.id} direction="inline" gap="base" alignItems="center">
              <s-badge tone={row.tone}>{row.label}</s-badge>
              <s-text>{row.amount}</s-text>
              {row.made ? <s-text color="subdued">{row.made}</s-text> : null}
              <s-link href={row.url}>Details</s-link>
            </s-stack>
          ))}
          {load.view.refundUrl ? <s-link href={load.view.refundUrl}>Issue a refund from Refund Verifier</s-link> : null}
        </s-stack>
      )}
    </s-admin-block>
  );
}
