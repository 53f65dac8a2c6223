import { useEffect, useState } from "react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link as RemixLink, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, Form as PolarisForm, FormLayout, InlineStack, Layout, Modal, Page, Text, TextField } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { refundFormAction, refundFormData } from "../refunds/routes.server";
import { VerdictBadge, adminOrderUrl } from "../dashboard/ui";
import { currencyExponent, formatMoney, toMinorUnits } from "../money/currency";
import { gatewayLabel, overRefundMessage, parseAmount, safeBackPath, splitOverSources } from "../refunds/form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? `Refund ${data.order.name}` : "Issue a refund"} · Refund Verifier` }];

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticateAdmin(request);
  const data = await refundFormData(session.shop, params.orderId ?? "");
  return { ...data, back: safeBackPath(new URL(request.url).searchParams.get("back")) };
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, sessionToken } = await authenticateAdmin(request);
  const form = await request.formData().catch(() => null);
  if (!form) return json({ ok: false as const, intent: "", code: "INVALID_FORM" as const, message: "The form could not be read. Reload the page and try again." }, { status: 422 });
  const intent = String(form.get("intent") ?? "");
  const result = await refundFormAction(session.shop, params.orderId ?? "", form, String(sessionToken?.sub ?? "unknown"), new Date());
  return json(
    result.ok
      ? { ok: true as const, intent, sysId: result.record.sysId, message: successMessage(result.record) }
      : { ok: false as const, intent, code: result.code, message: result.message, ...(result.fieldErrors ? { fieldErrors: result.fieldErrors } : {}) },
    { status: result.ok ? 200 : result.status },
  );
};

function successMessage(record: { sysId: string; shopifyOutcome: string; status: string }): string {
  if (record.shopifyOutcome === "created") return `${record.sysId} sent to Shopify. The verdict follows within seconds.`;
  return `${record.sysId} is settled: no refund was made for it. The order is open to refunds again.`;
}

const STATUS_TONE = { created: "info", succeeded: "success", failed: "critical" } as const;

type Review = { amount: string; minor: bigint };

export default function IssueRefund() {
  const { order, records, duplicateOnOrder, unsettledSysId, sources, recentRefund, back } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [notify, setNotify] = useState(false);
  const [amountError, setAmountError] = useState<string | undefined>();
  const [review, setReview] = useState<Review | null>(null);
  const [another, setAnother] = useState(false);
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";

  // Each answer of the action once: a refund sent resets the form; a refused amount is shown on its field.
  useEffect(() => {
    if (!result) return;
    if (result.ok && result.intent === "issue") {
      setAmount("");
      setNote("");
      setNotify(false);
      setAnother(false);
      setReview(null);
      setAmountError(undefined);
    } else if (!result.ok) {
      if (result.code !== "RECENT_REFUND") setReview(null);
      if ("fieldErrors" in result && result.fieldErrors?.amount) setAmountError(result.fieldErrors.amount);
    }
  }, [result]);

  const refundableMinor = toMinorUnits(order.refundable, order.currency) ?? 0n;
  const openReview = () => {
    const parsed = parseAmount(amount, order.currency);
    if (!parsed.ok) return setAmountError(parsed.message);
    if (parsed.minor > refundableMinor) return setAmountError(overRefundMessage(refundableMinor, order.currency, order.name));
    setAmountError(undefined);
    setAnother(false);
    setReview({ amount: parsed.amount, minor: parsed.minor });
  };
  const send = () => {
    if (!review) return;
    submit({ intent: "issue", amount: review.amount, note, ...(notify ? { notify: "on" } : {}), ...(another ? { confirmAnother: "yes" } : {}) }, { method: "post" });
  };

  const fieldErrorShown = Boolean(result && !result.ok && "fieldErrors" in result && result.fieldErrors?.amount);
  const banner = result && !fieldErrorShown && !(result.ok === false && result.code === "RECENT_REFUND" && review) ? result : null;
  const money = (minor: bigint) => formatMoney(minor, order.currency);
  const parts = review ? splitOverSources(sources, review.minor, order.currency) : [];
  const needsAnother = Boolean(recentRefund) || (result?.ok === false && result.code === "RECENT_REFUND");

  return (
    <Page backAction={{ content: "Back", url: back }} title={`Refund ${order.name}`} subtitle={`Refunded so far ${order.refunded} ${order.currency} · Shopify can still refund ${order.refundable} ${order.currency}`}>
      <TitleBar title={`Refund ${order.name}`} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {banner ? <Banner tone={banner.ok ? "success" : banner.code === "OUTCOME_UNKNOWN" || banner.code === "OUTCOME_PENDING" || banner.code === "RECENT_REFUND" ? "warning" : "critical"} title={banner.message} /> : null}
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
            {recentRefund && !unsettledSysId ? (
              <Banner tone="warning" title="This order was refunded minutes ago">
                <p>{recentRefund.message} Another refund needs your explicit confirmation.</p>
              </Banner>
            ) : null}
            <Card>
              <PolarisForm onSubmit={openReview} noValidate>
                <FormLayout>
                  <TextField
                    label={`Amount (${order.currency})`}
                    name="amount"
                    value={amount}
                    onChange={(value) => {
                      setAmount(value);
                      setAmountError(undefined);
                    }}
                    error={amountError}
                    autoComplete="off"
                    inputMode="decimal"
                    placeholder={currencyExponent(order.currency) === 0 ? "2500" : "25.00"}
                    helpText={`At most ${order.refundable} ${order.currency}${order.currency !== order.shopCurrency ? `, the currency the customer paid in (the shop's is ${order.shopCurrency})` : ""}; checked with Shopify before anything is sent.`}
                  />
                  <TextField label="Note (optional)" name="note" value={note} onChange={setNote} autoComplete="off" multiline={2} />
                  <Checkbox label="Notify the customer" name="notify" checked={notify} onChange={setNotify} />
                  <InlineStack gap="200">
                    <Button submit variant="primary" loading={busy} disabled={busy || Boolean(unsettledSysId)}>
                      Refund
                    </Button>
                  </InlineStack>
                </FormLayout>
              </PolarisForm>
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
                  <div data-refund-record={record.sysId}>
                    <InlineStack gap="200" blockAlign="center">
                      <Text as="span" fontWeight="semibold">{record.sysId}</Text>
                      <Text as="span">{`${record.amount} ${record.currency}`}</Text>
                      {record.shopAmount && record.shopCurrency !== record.currency ? <Text as="span" tone="subdued">{`(${record.shopAmount} ${record.shopCurrency})`}</Text> : null}
                      <Badge tone={STATUS_TONE[record.status as keyof typeof STATUS_TONE]}>{record.status}</Badge>
                      {record.verdict ? <VerdictBadge status={record.verdict.status} /> : null}
                    </InlineStack>
                  </div>
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
      <Modal
        open={Boolean(review)}
        onClose={() => setReview(null)}
        title={review ? `Refund ${money(review.minor)} on ${order.name}?` : "Confirm the refund"}
        primaryAction={{ content: review ? `Refund ${money(review.minor)} ${order.currency}` : "Refund", destructive: true, onAction: send, loading: busy, disabled: busy || (needsAnother && !another) }}
        secondaryActions={[{ content: "Cancel", onAction: () => setReview(null), disabled: busy }]}
      >
        {review ? (
          <Modal.Section>
            <BlockStack gap="300">
              {result?.ok === false && result.code === "RECENT_REFUND" ? <Banner tone="warning" title={result.message} /> : null}
              <Text as="p">
                {`${money(review.minor)} ${order.currency} goes back to the customer of ${order.name}. Shopify cannot undo a refund.`}
              </Text>
              <BlockStack gap="100">
                <Text as="h3" variant="headingSm">Where the money goes</Text>
                <ul data-refund-destinations>
                  {parts.map((part) => (
                    <li key={part.gateway}>{`${money(part.minor)} ${order.currency} to the ${gatewayLabel(part.gateway)} payment (${part.gateway})`}</li>
                  ))}
                </ul>
              </BlockStack>
              <Text as="p" tone="subdued">
                {notify ? "The customer is notified by email." : "The customer is not notified."}
                {note.trim() ? ` Note: ${note.trim()}` : ""}
              </Text>
              {needsAnother ? (
                <BlockStack gap="200">
                  {result?.ok === false && result.code === "RECENT_REFUND" ? null : <Banner tone="warning" title={recentRefund?.message ?? "This order was refunded minutes ago."} />}
                  <Checkbox label={`Yes, another refund on ${order.name}`} helpText="This order was refunded in the last 10 minutes. Tick this only if the customer is owed a second refund." checked={another} onChange={setAnother} />
                </BlockStack>
              ) : null}
            </BlockStack>
          </Modal.Section>
        ) : null}
      </Modal>
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
