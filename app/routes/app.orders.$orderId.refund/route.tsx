import { httpStatus } from "../../lib/http/status";
import { ISSUE_STATUS } from "../../refunds/outcomes";
import { json, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BlockStack, Layout, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { authenticateAdmin } from "../../screens/admin-auth.server";
import { requireStaff } from "../../staff/required.server";
import { answerRefundForm, refundFormData } from "../../refunds/form.server";
import { safeBackPath } from "../../refunds/form";
import { useRefundForm } from "./hooks/useRefundForm";
import { RefundBanners } from "./components/RefundBanners";
import { RiskBanners } from "./components/RiskBanners";
import { RefundForm } from "./components/RefundForm";
import { RefundAttempts } from "./components/RefundAttempts";
import { RefundConfirmation } from "./components/RefundConfirmation";
import { useCheckedRecords } from "./hooks/useCheckedRecords";
import type { Action, Loader } from "./types";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? `Refund ${data.order.name}` : "Issue a refund"} · Refund Verifier` }];

export const loader: Loader = async ({ request, params }) => {
  const { session } = await authenticateAdmin(request);
  const data = await refundFormData(session.shop, params.orderId ?? "");
  return { ...data, back: safeBackPath(new URL(request.url).searchParams.get("back")) };
};

export const action: Action = async ({ request, params }) => {
  const auth = await authenticateAdmin(request);
  const form = await request.formData().catch(() => null);
  if (!form)
    return json(
      { ok: false as const, intent: "", code: "INVALID_FORM" as const, message: "The form could not be read. Reload the page and try again.", attempts: null },
      { status: 422 },
    );
  const intent = String(form.get("intent") ?? "");
  const { result, attempts } = await answerRefundForm(auth.session.shop, params.orderId ?? "", form, requireStaff(auth).userId, new Date());
  return json(
    result.ok
      ? { ok: true as const, intent, sysId: result.record.sysId, message: successMessage(result.record), attempts }
      : {
          ok: false as const,
          intent,
          code: result.code,
          message: result.message,
          ...(result.fieldErrors ? { fieldErrors: result.fieldErrors } : {}),
          ...(result.risks ? { risks: result.risks } : {}),
          attempts,
        },
    { status: httpStatus(result, ISSUE_STATUS) },
  );
};

function successMessage(record: { sysId: string; shopifyOutcome: string; status: string }): string {
  // The verdict is the app's own check, seconds later: the page shows it beside the refund when it comes.
  if (record.shopifyOutcome === "created")
    return `${record.sysId}: Shopify accepted the refund. The app is checking that Shopify recorded it as asked; the result appears beside it.`;
  return `${record.sysId} is settled: no refund was made for it. The order is open to refunds again.`;
}

export default function IssueRefund() {
  const { order, records: loaded, readAt, duplicateOnOrder, unsettledSysId, sources, recentRefund, risks, back, formToken } = useLoaderData<typeof loader>();
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
              unsettledSysId={unsettledSysId}
              duplicateOnOrder={duplicateOnOrder}
              recentRefund={recentRefund}
            />
            <RiskBanners risks={risks} risk={form.risk} />
            <RefundForm order={order} form={form} busy={busy} unsettledSysId={unsettledSysId} />
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
