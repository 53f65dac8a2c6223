import { useState } from "react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link as RemixLink, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { refundFormAction, refundFormData } from "../refunds/routes.server";
import { VerdictBadge, adminOrderUrl } from "../dashboard/ui";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticateAdmin(request);
  return refundFormData(session.shop, params.orderId ?? "");
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, sessionToken } = await authenticateAdmin(request);
  const result = await refundFormAction(session.shop, params.orderId ?? "", await request.formData(), String(sessionToken?.sub ?? "unknown"), new Date());
  return json(result.ok ? { ok: true as const, sysId: result.record.sysId, message: successMessage(result.record) } : { ok: false as const, code: result.code, message: result.message }, { status: result.ok ? 200 : result.status });
};

function successMessage(record: { sysId: string; shopifyOutcome: string; status: string }): string {
  if (record.shopifyOutcome === "created") return `${record.sysId} sent to Shopify. The verdict follows within seconds.`;
  return `${record.sysId} is settled: no refund was made for it. The order is open to refunds again.`;
}

const STATUS_TONE = { created: "info", succeeded: "success", failed: "critical" } as const;

export default function IssueRefund() {
  const { order, records, duplicateOnOrder, unsettledSysId } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [notify, setNotify] = useState(false);
  const busy = navigation.state === "submitting";
  return (
    <Page backAction={{ content: "Refunds", url: "/app" }} title={`Refund ${order.name}`} subtitle={`Refunded so far ${order.refunded} ${order.currency} · Shopify can still refund ${order.refundable} ${order.currency}`}>
      <TitleBar title={`Refund ${order.name}`} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result ? <Banner tone={result.ok ? "success" : result.code === "OUTCOME_UNKNOWN" || result.code === "OUTCOME_PENDING" ? "warning" : "critical"} title={result.message} /> : null}
            {unsettledSysId ? (
              <Banner tone="warning" title={`${unsettledSysId} has no answer from Shopify yet`}>
                <p>A new refund on this order waits until {unsettledSysId} is settled, so that a customer is never refunded twice.</p>
              </Banner>
            ) : null}
            {duplicateOnOrder ? (
              <Banner tone="critical" title="Do not retry on this order">
                <p>Shopify created more than one refund on this order. Check it in Shopify admin before refunding again.</p>
              </Banner>
            ) : null}
            <Card>
              <Form method="post">
                <FormLayout>
                  <input type="hidden" name="intent" value="issue" />
                  <TextField
                    label={`Amount (${order.currency})`}
                    name="amount"
                    value={amount}
                    onChange={setAmount}
                    autoComplete="off"
                    inputMode="decimal"
                    placeholder="25.00"
                    helpText={`At most ${order.refundable} ${order.currency}${order.currency !== order.shopCurrency ? `, the currency the customer paid in (the shop's is ${order.shopCurrency})` : ""}; checked with Shopify before anything is sent.`}
                  />
                  <TextField label="Note (optional)" name="note" value={note} onChange={setNote} autoComplete="off" multiline={2} />
                  <Checkbox label="Notify the customer" name="notify" checked={notify} onChange={setNotify} />
                  <InlineStack gap="200">
                    <Button submit variant="primary" loading={busy} disabled={busy || !amount || Boolean(unsettledSysId)}>
                      Refund
                    </Button>
                  </InlineStack>
                </FormLayout>
              </Form>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">Refunds issued from the app</Text>
              <a href={adminOrderUrl(order.legacyId)} target="_top">Open the order in Shopify admin</a>
              {records.length === 0 ? <Text as="p" tone="subdued">None yet.</Text> : null}
              {records.map((record) => (
                <BlockStack key={record.id} gap="100">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="span" fontWeight="semibold">{record.sysId}</Text>
                    <Text as="span">{`${record.amount} ${record.currency}`}</Text>
                    {record.shopAmount && record.shopCurrency !== record.currency ? <Text as="span" tone="subdued">{`(${record.shopAmount} ${record.shopCurrency})`}</Text> : null}
                    <Badge tone={STATUS_TONE[record.status as keyof typeof STATUS_TONE]}>{record.status}</Badge>
                    {record.verdict ? <VerdictBadge status={record.verdict.status} /> : null}
                  </InlineStack>
                  {record.failureReason ? <Text as="p" variant="bodySm" tone="subdued">{record.failureReason}</Text> : null}
                  {record.operationId ? <RemixLink to={`/app/refunds/${record.operationId}`}>Evidence</RemixLink> : null}
                  {record.outcomeDetail && record.shopifyOutcome !== "refused" ? <Text as="p" variant="bodySm" tone="subdued">{record.outcomeDetail}</Text> : null}
                  {record.shopifyOutcome === "unknown" || record.shopifyOutcome === "key_conflict" ? (
                    <InlineStack gap="200">
                      {record.shopifyOutcome === "unknown" ? <RecordAction record={record} intent="resend" label={`Ask Shopify again about ${record.sysId}`} busy={busy} /> : null}
                      <RecordAction record={record} intent="settle" label={`Shopify admin shows no refund for ${record.sysId}`} busy={busy} />
                    </InlineStack>
                  ) : null}
                </BlockStack>
              ))}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function RecordAction({ record, intent, label, busy }: { record: { id: string; revision: string }; intent: "resend" | "settle"; label: string; busy: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="recordId" value={record.id} />
      <input type="hidden" name="revision" value={record.revision} />
      <Button submit size="slim" loading={busy}>
        {label}
      </Button>
    </Form>
  );
}
