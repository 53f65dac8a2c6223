import { useState } from "react";
import type { MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Link, Page, Text, TextField } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { screenAction, screenLoader } from "../../screens/context.server";
import { act, load } from "../../screens/refund.server";
import { ReviewBadge, VerdictBadge, adminOrderUrl } from "../../components/ui";
import { useMarkLeavingRefund } from "../../components/return-focus";
import { ORIGIN_LABELS, DUPLICATE_REASONS, madeTechnical, money, orderLabel } from "../../verdicts/words";
import { Instant } from "./components/Instant";
import { KeepWhole } from "./components/KeepWhole";
import { TechnicalDetails } from "./components/TechnicalDetails";
import { MoneySection } from "./components/MoneySection";
import { ExposureSection } from "./components/ExposureSection";
import { LimitsSection } from "./components/LimitsSection";

/** Who a step of the timeline came from, in a merchant's words (the engine's names are in Technical details). */
const STEP_LABELS = { webhook: "Shopify", observation: "Shopify", evaluation: "Verdict", review: "Staff" } as const;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? `Refund on ${orderLabel(data.refund)}` : "Refund"} · Refund Verifier` }];

export const loader = screenLoader(load);

/** Resolve, re-check, or add the refund's proof to its dispute. */
export const action = screenAction(act);

export default function RefundDetail() {
  const detail = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [note, setNote] = useState("");
  const { refund, lead, times } = detail;
  const doNotRetry = refund.reasons.some((reason) => DUPLICATE_REASONS.includes(reason));
  const fieldErrors = result && !result.ok ? result.fieldErrors : undefined;
  const at = (iso: string) => <Instant iso={iso} times={times} />;
  useMarkLeavingRefund(refund.id);
  return (
    <Page
      backAction={{ content: "Refunds", url: "/app" }}
      title={`Refund on ${orderLabel(refund)}`}
      titleMetadata={<VerdictBadge status={refund.status} />}
      subtitle={`${refund.amountDisplay ?? "—"} ${refund.currency ?? ""} · ${refund.made}`}
    >
      <TitleBar title="Refund" />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result && !result.ok ? (
              <Banner tone={result.status === 409 ? "warning" : "critical"} title={result.message}>
                {/* A lost race: the winner's note, and the one this person typed, kept to copy (the form is gone). */}
                {result.status === 409 && "resolvedNote" in result && result.resolvedNote ? <p>{`Their note: “${result.resolvedNote}”`}</p> : null}
                {result.status === 409 && note ? <TextField label="Your note (not saved)" value={note} readOnly multiline={3} autoComplete="off" /> : null}
              </Banner>
            ) : null}
            {result?.ok ? <Banner tone="success" title={result.message} /> : null}
            {doNotRetry ? (
              <Banner tone="critical" title="Do not retry this refund">
                <p>
                  Shopify holds another refund of the same amount on this order, made within the 10 minutes before this one. Check the order before doing
                  anything else.
                </p>
              </Banner>
            ) : null}
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  What the verdict means
                </Text>
                <div data-evidence-lead="">
                  <Text as="p" variant="headingLg" fontWeight="semibold">
                    {lead.sentence}
                  </Text>
                </div>
                {lead.details.map((line) => (
                  <Text key={line} as="p">
                    {line}
                  </Text>
                ))}
                {lead.nextStep ? (
                  <Text as="p">
                    <Text as="span" fontWeight="semibold">
                      Next step:{" "}
                    </Text>
                    {lead.nextStep}
                  </Text>
                ) : null}
                {lead.links.length ? (
                  <ul style={{ margin: 0, paddingInlineStart: 20 }} aria-label="Related">
                    {lead.links.map((l) => (
                      <li key={l.url}>
                        <Link url={l.url} target={l.admin ? "_top" : undefined}>
                          {l.label}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
                {refund.correlation === "fingerprint" ? (
                  <Text as="p" tone="caution">
                    Matched by order and amount only: Shopify did not confirm this refund's id when it was issued, so the app adopted the refund with the same
                    amount on the order.
                  </Text>
                ) : null}
                {refund.shopAmount && refund.shopCurrency && refund.shopCurrency !== refund.currency ? (
                  <Text as="p">{`In the shop's currency Shopify recorded ${money(refund.shopAmount, refund.shopCurrency)} ${refund.shopCurrency}.`}</Text>
                ) : null}
                {refund.provisionalVerdict ? (
                  <Text as="p" tone="subdued">
                    {`The evidence says ${refund.provisionalVerdict}. Final after Shopify's stale read window, at `}
                    {at(detail.nextAttemptAt ?? refund.startedAt)}
                    {", when the refund is read once more."}
                  </Text>
                ) : null}
                {refund.apiVersionsOutside ? (
                  <Text
                    as="p"
                    tone="critical"
                  >{`Evidence was served by Admin API ${refund.apiVersionsOutside}, which this contract version does not cover.`}</Text>
                ) : null}
                <Text as="p" variant="bodySm" tone="subdued">
                  {"Started "}
                  {at(refund.startedAt)}
                  {refund.decidedAt ? (
                    <>
                      {" · decided "}
                      {at(refund.decidedAt)}
                    </>
                  ) : null}
                  {detail.observing && detail.nextAttemptAt ? (
                    <>
                      {` · next check `}
                      {at(detail.nextAttemptAt)}
                      {` (attempt ${refund.attempts + 1}); gives up `}
                      {at(detail.timeoutAt)}
                    </>
                  ) : null}
                  {detail.timeZone === "UTC" ? " · times in UTC: Shopify did not say the shop's time zone" : null}
                </Text>
              </BlockStack>
            </Card>
            {detail.limits ? <LimitsSection limits={detail.limits} times={times} /> : null}
            {detail.money.shown ? <MoneySection money={detail.money} times={times} /> : null}
            {detail.exposure ? <ExposureSection exposure={detail.exposure} times={times} /> : null}
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Timeline
                </Text>
                {detail.duplicatesDropped ? (
                  <Text
                    as="p"
                    tone="subdued"
                  >{`${detail.duplicatesDropped} duplicate webhook deliver${detail.duplicatesDropped === 1 ? "y was" : "ies were"} dropped.`}</Text>
                ) : null}
                <BlockStack gap="300">
                  {detail.timeline.map((entry, i) => (
                    <BlockStack key={i} gap="050">
                      <InlineStack gap="200" blockAlign="center">
                        <Text as="span" fontWeight="semibold">
                          {entry.title}
                        </Text>
                        {entry.tone ? <Badge tone={entry.tone}>{STEP_LABELS[entry.kind]}</Badge> : <Badge>{STEP_LABELS[entry.kind]}</Badge>}
                      </InlineStack>
                      <Text as="span" variant="bodySm" tone="subdued">
                        {at(entry.at)}
                        {entry.detail ? <KeepWhole text={` · ${entry.detail}`} /> : null}
                      </Text>
                    </BlockStack>
                  ))}
                </BlockStack>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Actions
              </Text>
              <Link url={adminOrderUrl(refund.orderId)} target="_top">
                Open the order in Shopify admin
              </Link>
              {doNotRetry ? null : <Link url={`/app/orders/${refund.orderId}/refund`}>{`Issue a refund on ${orderLabel(refund)}`}</Link>}
              {refund.status === "PENDING" || refund.status === "UNVERIFIABLE" ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="recheck" />
                  <input type="hidden" name="revision" value={refund.revision} />
                  <Button submit loading={navigation.state === "submitting"}>
                    Re-check now
                  </Button>
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
                    {detail.pairedWith.length ? (
                      <Text as="p">
                        {`Resolving this refund resolves the other refund${detail.pairedWith.length === 1 ? "" : "s"} of its duplicate on ${orderLabel(refund)} too, in the review queue one item: `}
                        {detail.pairedWith.map((other, i) => (
                          <span key={other.id}>
                            {i > 0 ? "; " : ""}
                            <Link url={`/app/refunds/${other.id}`}>
                              {`the refund of ${other.amountDisplay ?? "an unknown amount"} ${other.currency ?? ""}`.trim()}
                            </Link>
                            {" made "}
                            {at(other.startedAt)}
                          </span>
                        ))}
                        .
                      </Text>
                    ) : null}
                    <TextField
                      label="Resolution note"
                      name="note"
                      value={note}
                      onChange={setNote}
                      multiline={3}
                      autoComplete="off"
                      error={fieldErrors?.note}
                      helpText="Say what you checked and what you did; it stays in the audit trail."
                    />
                    <Box>
                      <Button submit variant="primary" loading={navigation.state === "submitting"}>
                        Resolve
                      </Button>
                    </Box>
                  </BlockStack>
                </Form>
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>
        {/* The whole width, below both columns: its paths and ids are long and read whole, so in the
            narrow main column the condition table was cut at the card's edge (issue 26). */}
        <Layout.Section>
          <TechnicalDetails
            facts={{
              contract: detail.contract,
              refundGid: refund.refundGid,
              orderGid: refund.orderGid,
              learned: `${ORIGIN_LABELS[refund.origin] ?? refund.origin} (${refund.origin})`,
              made: madeTechnical(refund),
              reasons: refund.reasons,
              apiVersions: detail.apiVersions,
              instants: [
                { label: "Started", iso: refund.startedAt },
                ...(refund.decidedAt ? [{ label: "Decided", iso: refund.decidedAt }] : []),
                ...(detail.nextAttemptAt ? [{ label: "Next check", iso: detail.nextAttemptAt }] : []),
                { label: "Gives up", iso: detail.timeoutAt },
              ],
              conditions: detail.conditions,
              steps: detail.timeline.map((entry) => ({ iso: entry.at, text: entry.technical })),
            }}
          />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
