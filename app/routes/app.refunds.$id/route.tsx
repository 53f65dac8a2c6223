import { Fragment, useState } from "react";
import type { MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Layout, Page, TextField } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { screenAction, screenLoader } from "../../screens/context.server";
import { act, load } from "../../screens/refund.server";
import { VerdictBadge } from "../../components/ui";
import { useMarkLeavingRefund } from "../../components/return-focus";
import { ORIGIN_LABELS, DUPLICATE_REASONS, madeTechnical, orderLabel } from "../../verdicts/words";
import { LeadCard } from "./components/LeadCard";
import { RefundActions } from "./components/RefundActions";
import { Timeline } from "./components/Timeline";
import { TechnicalDetails } from "./components/TechnicalDetails";
import type { ActionResult, Detail, Times } from "./types";
import { MoneySection } from "./components/MoneySection";
import { ExposureSection } from "./components/ExposureSection";
import { LimitsSection } from "./components/LimitsSection";
import { afterEveryAction } from "../../components/revalidate";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? `Refund on ${orderLabel(data.refund)}` : "Refund"} · Refund Verifier` }];

export const loader = screenLoader(load);

export const shouldRevalidate = afterEveryAction;

/** Resolve, re-check, or add the refund's proof to its dispute. */
export const action = screenAction(act);

/**
 * The cards after the lead, in the order a person reads them, each shown when the refund has it:
 * the refund limits it met (decision 030), where its money went (contract shopify.refund.settled),
 * whether it is at risk twice (shopify.refund.exposure). A new follow-up is one more card here.
 */
const SECTIONS: ((detail: Detail, times: Times) => React.ReactNode)[] = [
  (detail, times) => (detail.limits ? <LimitsSection limits={detail.limits} times={times} /> : null),
  (detail, times) => (detail.money.shown ? <MoneySection money={detail.money} times={times} /> : null),
  (detail, times) => (detail.exposure ? <ExposureSection exposure={detail.exposure} times={times} /> : null),
];

export default function RefundDetail() {
  const detail = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [note, setNote] = useState("");
  const { refund } = detail;
  const doNotRetry = refund.reasons.some((reason) => DUPLICATE_REASONS.includes(reason));
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
            <ActionAnswer result={result} note={note} />
            {doNotRetry ? (
              <Banner tone="critical" title="Do not retry this refund">
                <p>
                  Shopify holds another refund of the same amount on this order, made within the 10 minutes before this one. Check the order before doing
                  anything else.
                </p>
              </Banner>
            ) : null}
            <LeadCard detail={detail} />
            {SECTIONS.map((section, i) => (
              <Fragment key={i}>{section(detail, detail.times)}</Fragment>
            ))}
            <Timeline detail={detail} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <RefundActions
            detail={detail}
            doNotRetry={doNotRetry}
            note={note}
            setNote={setNote}
            noteError={result && !result.ok && "fieldErrors" in result ? result.fieldErrors?.note : undefined}
          />
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

/** What the person's last action came to: done, or refused; a lost race shows the winner's note and the one this person typed, kept to copy (the form is gone). */
function ActionAnswer({ result, note }: { result: ActionResult; note: string }) {
  if (!result) return null;
  if (result.ok) return <Banner tone="success" title={result.message} />;
  return (
    <Banner tone={result.status === 409 ? "warning" : "critical"} title={result.message}>
      {result.status === 409 && "resolvedNote" in result && result.resolvedNote ? <p>{`Their note: “${result.resolvedNote}”`}</p> : null}
      {result.status === 409 && note ? <TextField label="Your note (not saved)" value={note} readOnly multiline={3} autoComplete="off" /> : null}
    </Banner>
  );
}
