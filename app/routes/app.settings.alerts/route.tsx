import type { MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Layout, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { act, load } from "../../screens/alert-settings.server";
import { screenAction, screenLoader } from "../../screens/context.server";
import { AlertSettingsForm } from "./components/AlertSettingsForm";
import { DeliveryLog } from "./components/DeliveryLog";
import { FlowTriggers } from "./components/FlowTriggers";
import { useWaitingDeliveries } from "./hooks/useWaitingDeliveries";
import { afterEveryAction } from "../../components/revalidate";

export const meta: MetaFunction = () => [{ title: "Alerts · Refund Verifier" }];

export const loader = screenLoader(load);

export const shouldRevalidate = afterEveryAction;

export const action = screenAction(act);

export default function AlertsSettings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const deliveries = useWaitingDeliveries(data.deliveries);
  return (
    <Page title="Alerts" subtitle="Who hears about refunds that need a person, and how." backAction={{ content: "Refunds", url: "/app" }}>
      <TitleBar title="Alerts" />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {data.server.secretKey !== "ok" && (
              <Banner tone="warning" title="Slack alerts cannot be set up on this server yet">
                {data.server.secretKey === "missing"
                  ? "The app stores Slack URLs encrypted, and this server has no ALERTS_SECRET_KEY. Whoever runs the app sets it (see the README)."
                  : "ALERTS_SECRET_KEY is set but is not a 32-byte key. Whoever runs the app must fix it (see the README)."}
              </Banner>
            )}
            {!data.server.email && (
              <Banner tone="warning" title="Email is not set up on this server">
                Alerts to email addresses show in the delivery log below as not delivered until whoever runs the app sets SMTP_URL; use "Send again" after that.
              </Banner>
            )}
            <AlertSettingsForm key={data.settings.revision} settings={data.settings} slackOrigin={data.server.slackOrigin} result={result} />
            <FlowTriggers triggers={data.flowTriggers} timeZone={data.timeZone} />
            <DeliveryLog deliveries={deliveries} timeZone={data.timeZone} result={result} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
