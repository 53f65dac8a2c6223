import { useState } from "react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Link, Page, Text, TextField } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { refundDetail, refundAction } from "../review/routes.server";
import conditionStyles from "../dashboard/conditions.css?url";
import { ReviewBadge, VerdictBadge, adminOrderUrl, when, ORIGIN_LABELS } from "../dashboard/ui";

export const links = () => [{ rel: "stylesheet", href: conditionStyles }];

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticateAdmin(request);
  return refundDetail(session.shop, params.id ?? "", new Date());
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, sessionToken } = await authenticateAdmin(request);
  const outcome = await refundAction(session.shop, params.id ?? "", await request.formData(), String(sessionToken?.sub ?? "unknown"), new Date());
  return json(outcome, { status: outcome.status });
};

/** A condition's result as a person reads it: a contradiction that holds is the bad news, one that fails is not. */
function resultBadge(group: string, status: "holds" | "fails" | "unknown") {
  if (status === "unknown") return <Badge tone="info">unknown</Badge>;
  if (group === "verified") return <Badge tone={status === "holds" ? "success" : "critical"}>{status}</Badge>;
  return status === "holds" ? <Badge tone="critical">holds</Badge> : <Badge>does not hold</Badge>;
}
const show = (value: unknown) => (value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

export default function RefundDetail() {
  const detail = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [note, setNote] = useState("");
  const { refund } = detail;
  const doNotRetry = refund.reasons.includes("duplicate_refund_present");
  return (
    <Page
      backAction={{ content: "Refunds", url: "/app" }}
      title={`Refund on ${refund.orderName ?? `order ${refund.orderId}`}`}
      titleMetadata={<VerdictBadge status={refund.status} />}
      subtitle={`${refund.amountDisplay ?? "—"} ${refund.currency ?? ""} · ${ORIGIN_LABELS[refund.origin] ?? refund.origin} · started ${when(refund.startedAt)}`}
    >
      <TitleBar title="Refund" />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result && !result.ok ? <Banner tone={result.status === 409 ? "warning" : "critical"} title={result.message} /> : null}
            {result?.ok ? <Banner tone="success" title={result.message} /> : null}
            {doNotRetry ? (
              <Banner tone="critical" title="Do not retry this refund">
                <p>Shopify created more than one refund on this order since this one started. Check the order before doing anything else.</p>
              </Banner>
            ) : null}
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  What the verdict means
                </Text>
                <Text as="p">{detail.explanation ?? refund.reasonText}</Text>
                {refund.correlation === "fingerprint" ? (
                  <Text as="p" tone="caution">Matched by order and amount only: Shopify did not confirm this refund's id when it was issued, so the app adopted the refund with the same amount on the order.</Text>
                ) : null}
                {refund.provisionalVerdict ? (
                  <Text as="p" tone="subdued">{`The evidence says ${refund.provisionalVerdict}. Final after Shopify's stale read window, at ${when(detail.nextAttemptAt ?? refund.startedAt)}, when the refund is read once more.`}</Text>
                ) : null}
                {refund.reasons.length > 1 ? <Text as="p" tone="subdued">{`Everything that decided it: ${refund.reasons.join(", ")}`}</Text> : null}
                {detail.observing && detail.nextAttemptAt ? (
                  <Text as="p" tone="subdued">{`Next check ${when(detail.nextAttemptAt)} (attempt ${refund.attempts + 1}); gives up at ${when(detail.timeoutAt)}.`}</Text>
                ) : null}
              </BlockStack>
            </Card>
            <Card padding="0">
              <Box padding="400" paddingBlockEnd="200">
                <Text as="h2" variant="headingMd">
                  Conditions
                </Text>
              </Box>
              {detail.conditions.length ? (
                <table className="rv-conditions">
                  <thead>
                    <tr>
                      <th style={{ width: "40%" }}>Condition</th>
                      <th>Expected</th>
                      <th>Observed</th>
                      <th style={{ width: 120 }}>Result</th>
                    </tr>
                  </thead>
                  <tbody>
                    {detail.conditions.map((c) => (
                      <tr key={c.id} data-condition={c.id}>
                        <td>
                          <BlockStack gap="050">
                            <InlineStack gap="150" blockAlign="center">
                              <Text as="span" fontWeight="semibold">{c.id}</Text>
                              <Text as="span" variant="bodySm" tone="subdued">{c.group === "verified" ? "needed for Verified" : c.group === "contradicted" ? "contradicts" : "rule"}</Text>
                            </InlineStack>
                            <Text as="span" variant="bodySm">{c.meaning}</Text>
                            <Text as="span" variant="bodySm" tone="subdued">{`${c.path} ${c.operator}`}</Text>
                          </BlockStack>
                        </td>
                        <td><Text as="span" variant="bodySm">{show(c.expected_value ?? c.expected)}</Text></td>
                        <td><Text as="span" variant="bodySm">{show(c.actual)}</Text></td>
                        <td>{resultBadge(c.group, c.status)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <Box padding="400">
                  <Text as="p" tone="subdued">Not evaluated yet: the first check runs a second after the refund was created.</Text>
                </Box>
              )}
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Timeline
                </Text>
                {detail.duplicatesDropped ? <Text as="p" tone="subdued">{`${detail.duplicatesDropped} duplicate webhook deliver${detail.duplicatesDropped === 1 ? "y was" : "ies were"} dropped.`}</Text> : null}
                <BlockStack gap="200">
                  {detail.timeline.map((entry, i) => (
                    <InlineStack key={i} gap="300" wrap={false} blockAlign="start">
                      <Box minWidth="170px">
                        <Text as="span" variant="bodySm" tone="subdued">{when(entry.at)}</Text>
                      </Box>
                      <BlockStack gap="050">
                        <InlineStack gap="200">
                          <Text as="span" fontWeight="semibold">{entry.title}</Text>
                          {entry.tone ? <Badge tone={entry.tone}>{entry.kind}</Badge> : <Badge>{entry.kind}</Badge>}
                        </InlineStack>
                        {entry.detail ? <Text as="span" variant="bodySm" tone="subdued">{entry.detail}</Text> : null}
                      </BlockStack>
                    </InlineStack>
                  ))}
                </BlockStack>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">Actions</Text>
                <Link url={adminOrderUrl(refund.orderId)} target="_top">Open the order in Shopify admin</Link>
                {doNotRetry ? null : <Link url={`/app/orders/${refund.orderId}/refund`}>Issue a refund on this order</Link>}
                {refund.status === "PENDING" || refund.status === "UNVERIFIABLE" ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="recheck" />
                    <Button submit loading={navigation.state === "submitting"}>Re-check now</Button>
                  </Form>
                ) : null}
                <InlineStack gap="200" blockAlign="center">
                  <Text as="span">Review:</Text>
                  <ReviewBadge state={refund.reviewState} />
                </InlineStack>
                {refund.reviewState === "open" ? (
                  <Form method="post">
                    <BlockStack gap="200">
                      <input type="hidden" name="intent" value="resolve" />
                      <input type="hidden" name="revision" value={refund.revision} />
                      <TextField label="Resolution note" name="note" value={note} onChange={setNote} multiline={3} autoComplete="off" helpText="Say what you checked and what you did; it stays in the audit trail." />
                      <Button submit variant="primary" loading={navigation.state === "submitting"}>Resolve</Button>
                    </BlockStack>
                  </Form>
                ) : null}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="100">
                <Text as="h2" variant="headingMd">Decided by</Text>
                <Text as="p">{`${detail.contract.id} ${detail.contract.version}`}</Text>
                <Text as="p" variant="bodySm" tone="subdued">{`Hash declared by the contract's author: ${detail.contract.declaredHash}; computed by this app: ${detail.contract.hash}.`}</Text>
                {detail.contract.declaredHash !== detail.contract.hash ? (
                  <Text as="p" variant="bodySm" tone="subdued">
                    They differ: the author hashed the contract with its own tool, whose exact form this app does not have. The contract's content is what decided this refund.
                  </Text>
                ) : null}
                <Text as="p" variant="bodySm">{detail.contract.summary}</Text>
                <Text as="p" variant="bodySm" tone="subdued">{`Refund ${refund.refundGid}`}</Text>
                {refund.shopAmount && refund.shopCurrency && refund.shopCurrency !== refund.currency ? (
                  <Text as="p" variant="bodySm">{`Shopify recorded ${refund.shopAmount} ${refund.shopCurrency} in the shop's currency.`}</Text>
                ) : null}
                {refund.apiVersionsOutside ? (
                  <Text as="p" variant="bodySm" tone="critical">{`Evidence was served by Admin API ${refund.apiVersionsOutside}, which this contract version does not cover.`}</Text>
                ) : null}
                {detail.apiVersions.map((v) => (
                  <Text key={v.channel} as="p" variant="bodySm" tone="subdued">{`${v.channel}: answered by Admin API ${v.apiVersion}`}</Text>
                ))}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
