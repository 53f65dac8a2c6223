import type { MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BlockStack, Layout, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { screenAction, screenLoader } from "../../screens/context.server";
import { act, load } from "../../screens/refund-form.server";
import { useRefundForm } from "./hooks/useRefundForm";
import { RefundBanners } from "./components/RefundBanners";
import { RiskBanners } from "./components/RiskBanners";
import { RefundForm } from "./components/RefundForm";
import { RefundAttempts } from "./components/RefundAttempts";
import { RefundConfirmation } from "./components/RefundConfirmation";
import { useCheckedRecords } from "./hooks/useCheckedRecords";
import { afterEveryAction } from "../../components/revalidate";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? `Refund ${data.order.name}` : "Issue a refund"} · Refund Verifier` }];

export const loader = screenLoader(load);

export const shouldRevalidate = afterEveryAction;

/** Issue a refund, ask Shopify again about an attempt, or settle one; with the order's attempts as they are after it. */
export const action = screenAction(act);

export default function IssueRefund() {
  const { order, records: loaded, readAt, duplicateOnOrder, openAttemptSysId, sources, recentRefund, risks, back, formToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const form = useRefundForm(order, result, formToken, risks);
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const records = useCheckedRecords(loaded, readAt, result?.attempts ?? undefined);

  return (
    <Page
      backAction={{ content: "Back", url: back }}
      title={`Refund ${order.name}`}
      subtitle={`Refunded so far ${order.refunded} ${order.currency} · Shopify can still refund ${order.refundable} ${order.currency}`}
    >
      <TitleBar title={`Refund ${order.name}`} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <RefundBanners
              result={result}
              records={records}
              review={form.review}
              openAttemptSysId={openAttemptSysId}
              duplicateOnOrder={duplicateOnOrder}
              recentRefund={recentRefund}
            />
            <RiskBanners risks={risks} risk={form.risk} />
            <RefundForm order={order} form={form} busy={busy} openAttemptSysId={openAttemptSysId} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <RefundAttempts order={order} records={records} busy={busy} />
        </Layout.Section>
      </Layout>
      <RefundConfirmation order={order} sources={sources} recentRefund={recentRefund} result={result} form={form} busy={busy} />
    </Page>
  );
}
