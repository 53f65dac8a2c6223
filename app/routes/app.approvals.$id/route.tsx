import type { MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Layout, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { act, load } from "../../screens/approval.server";
import { screenAction, screenLoader } from "../../screens/context.server";
import { ApprovalRequest } from "./components/ApprovalRequest";
import { afterEveryAction } from "../../components/revalidate";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? `Approve ${data.request.sysId}` : "Refund request"} · Refund Verifier` }];

export const loader = screenLoader(load);

export const shouldRevalidate = afterEveryAction;

export const action = screenAction(act);

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
