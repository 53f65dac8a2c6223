import type { MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Layout, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { screenAction, screenLoader } from "../../screens/context.server";
import { act, load } from "../../screens/limit-settings.server";
import { LimitsForm } from "./components/LimitsForm";
import { afterEveryAction } from "../../components/revalidate";

export const meta: MetaFunction = () => [{ title: "Refund limits · Refund Verifier" }];

export const loader = screenLoader(load);

export const shouldRevalidate = afterEveryAction;

export const action = screenAction(act);

export default function RefundLimitsSettings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <Page title="Refund limits" subtitle="A second pair of eyes before money leaves." backAction={{ content: "Refunds", url: "/app" }}>
      <TitleBar title="Refund limits" />
      <Layout>
        <Layout.Section>
          <LimitsForm data={data} result={result} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
