import { json, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Layout, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import db from "../../db.server";
import { REFUND_CREATED } from "../../contracts/registry.server";
import { httpStatus } from "../../lib/http/status";
import { ISSUE_STATUS } from "../../refunds/outcomes";
import { approvalAction, approvalPage } from "../../refunds/approval-page.server";
import { authenticateAdmin } from "../../screens/admin-auth.server";
import { interactiveGateway } from "../../shopify.server";
import { requireStaff } from "../../staff/required.server";
import { ApprovalRequest } from "./components/ApprovalRequest";
import type { DecisionAnswer, Loader } from "./types";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? `Approve ${data.request.sysId}` : "Refund request"} · Refund Verifier` }];

export const loader: Loader = async ({ request, params }) => {
  const auth = await authenticateAdmin(request);
  return json(await approvalPage(db, auth.session.shop, params.id ?? "", requireStaff(auth), new Date()));
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const auth = await authenticateAdmin(request);
  const form = await request.formData().catch(() => null);
  if (!form)
    return json<DecisionAnswer>(
      { ok: false, intent: "", code: "INVALID_FORM", message: "The form could not be read. Reload the page and try again." },
      { status: 422 },
    );
  const intent = String(form.get("intent") ?? "");
  const result = await approvalAction(db, REFUND_CREATED, interactiveGateway(), auth.session.shop, params.id ?? "", requireStaff(auth), form, new Date());
  const answer: DecisionAnswer = result.ok
    ? {
        ok: true,
        intent,
        message:
          intent === "decline"
            ? `Declined: ${result.record.sysId} was not sent to Shopify, and the person who asked sees your reason.`
            : `Approved: Shopify accepted ${result.record.sysId}. The app is checking that Shopify recorded it as asked.`,
      }
    : { ok: false, intent, code: result.code, message: result.message, ...(result.risks ? { risks: result.risks } : {}) };
  return json(answer, { status: httpStatus(result, ISSUE_STATUS) });
};

export default function ApprovalRequestPage() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <Page
      title={`Refund request ${data.request.sysId}`}
      subtitle={`${data.request.amount} ${data.request.currency} on ${data.request.orderName}`}
      backAction={{ content: "Review queue", url: "/app/review" }}
    >
      <TitleBar title={`Refund request ${data.request.sysId}`} />
      <Layout>
        <Layout.Section>
          <ApprovalRequest data={data} answer={answer} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
