import { Form, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { SectionCard } from "../../../components/SectionCard";
import { Instant, adminOrderUrl } from "../../../components/ui";
import { useNarrowScreen } from "../../../components/useNarrowScreen";
import type { ApprovalLoaderData, DecisionAnswer } from "../types";

const STATE_BADGE = {
  waiting: { tone: "attention", label: "Waiting for approval" },
  approved: { tone: "success", label: "Approved" },
  declined: { tone: "critical", label: "Declined" },
  expired: { tone: undefined, label: "Expired" },
} as const;

/** The shop's time zone, as every screen shows times: the app layout's data (this page's own does not carry it); UTC until it is known. */
function useShopTimeZone(): string {
  return useRouteLoaderData<{ timeZone?: string }>("routes/app")?.timeZone ?? "UTC";
}

/** One fact of the request: a `<div>` holding its `<dt>` and `<dd>`, the only grouping a `<dl>` allows (axe: definition-list). */
function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>
        <Text as="span" variant="bodySm" tone="subdued">
          {label}
        </Text>
      </dt>
      <dd style={{ margin: 0 }}>
        <Text as="span">{children}</Text>
      </dd>
    </div>
  );
}

/** Asked again (a refund on the order since, a risk of paying twice): the approve form carries the person's yes. */
function confirmationsOf(answer: DecisionAnswer | undefined) {
  return {
    another: answer?.code === "RECENT_REFUND",
    risks: answer?.risks ?? [],
  };
}

/** Approve (with an optional note) or decline (with a reason the person who asked reads); on a phone each button is the card's width. */
function Decide({ data, answer }: { data: ApprovalLoaderData; answer: DecisionAnswer | undefined }) {
  const navigation = useNavigation();
  const narrow = useNarrowScreen();
  const posting = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const [note, setNote] = useState("");
  const [reason, setReason] = useState("");
  const confirm = confirmationsOf(answer);
  const declineError = answer && !answer.ok && answer.intent === "decline" && answer.code === "INVALID_REASON" ? answer.message : undefined;
  const buttonRow = narrow ? undefined : ("start" as const);
  return (
    <div data-decide="">
      <SectionCard title="Your decision" gap="500">
        <Form method="post" aria-label="Approve">
          <input type="hidden" name="intent" value="approve" />
          <input type="hidden" name="limitsRevision" value={data.limitsNow.revision} />
          {confirm.another && <input type="hidden" name="confirmAnother" value="yes" />}
          {confirm.risks.length > 0 && <input type="hidden" name="confirmRisk" value={confirm.risks.join(",")} />}
          <BlockStack gap="200">
            <TextField
              label="Note (optional)"
              name="note"
              value={note}
              onChange={setNote}
              autoComplete="off"
              maxLength={500}
              helpText="Kept with the refund's evidence, for whoever looks at it later."
            />
            <InlineStack align={buttonRow}>
              <Button submit variant="primary" size="large" fullWidth={narrow} loading={posting === "approve"} disabled={Boolean(posting)}>
                {confirm.another
                  ? "Yes, another refund: approve"
                  : confirm.risks.length
                    ? "Yes, refund anyway: approve"
                    : `Approve and refund ${data.request.amount} ${data.request.currency}`}
              </Button>
            </InlineStack>
          </BlockStack>
        </Form>
        <Form method="post" aria-label="Decline">
          <input type="hidden" name="intent" value="decline" />
          <BlockStack gap="200">
            <TextField
              label="Reason to decline"
              name="reason"
              value={reason}
              onChange={setReason}
              autoComplete="off"
              multiline={2}
              maxLength={500}
              helpText="Needed to decline: the person who asked reads it. Nothing is refunded."
              error={declineError}
            />
            <InlineStack align={buttonRow}>
              <Button submit tone="critical" size="large" fullWidth={narrow} loading={posting === "decline"} disabled={Boolean(posting)}>
                Decline
              </Button>
            </InlineStack>
          </BlockStack>
        </Form>
      </SectionCard>
    </div>
  );
}

/** What approve or decline came to: done (and back to the queue), asked again (a warning), or refused. */
function AnswerBanner({ answer }: { answer: DecisionAnswer }) {
  const askedAgain = answer.code === "RECENT_REFUND" || Boolean(answer.risks?.length) || answer.code === "LIMITS_CHANGED";
  return (
    <Banner
      tone={answer.ok ? "success" : askedAgain ? "warning" : "critical"}
      action={answer.ok ? { content: "Back to the review queue", url: "/app/review" } : undefined}
    >
      <p>{answer.message}</p>
    </Banner>
  );
}

/** One request for approval: who asked, how much, the order, the limit it went over, and the approve or decline a person can give. */
export function ApprovalRequest({ data, answer }: { data: ApprovalLoaderData; answer: DecisionAnswer | undefined }) {
  const { request, limitsNow, viewer } = data;
  const timeZone = useShopTimeZone();
  const at = (iso: string) => <Instant iso={iso} timeZone={timeZone} />;
  const badge = STATE_BADGE[request.state];
  return (
    <BlockStack gap="400">
      {answer && <AnswerBanner answer={answer} />}
      <div data-request-summary="">
        <SectionCard
          title={
            <>
              {request.amount} {request.currency} on {request.orderName}
            </>
          }
          badge={<Badge tone={badge.tone}>{badge.label}</Badge>}
        >
          <Text as="p">{request.limits}</Text>
          <dl style={{ margin: 0, display: "grid", gap: "var(--p-space-200)" }}>
            <Line label="Asked by">
              {`${request.askedBy}, `}
              {at(request.askedAt)}
            </Line>
            <Line label="Order">
              <a href={adminOrderUrl(request.orderId)} target="_top">
                {request.orderName} in Shopify admin
              </a>
            </Line>
            {request.note && <Line label="Note to the customer's refund">{request.note}</Line>}
            {request.state === "waiting" && (
              <Line label="Expires">
                {at(request.expiresAt)}
                {": nothing is refunded unless someone approves it by then."}
              </Line>
            )}
            {request.state === "expired" && !request.decidedBy && (
              <Line label="Expired">
                {at(request.expiresAt)}
                {": nobody approved it within a day. Nothing was refunded; the person who asked can ask again."}
              </Line>
            )}
            {request.decidedBy && request.decidedAt && (
              <Line label={request.state === "approved" ? "Approved by" : "Declined by"}>
                {`${request.decidedBy}, `}
                {at(request.decidedAt)}
                {request.decisionNote ? `: ${request.decisionNote}` : ""}
              </Line>
            )}
            {request.limitsWhenDecided && <Line label="Limits when decided">{request.limitsWhenDecided}</Line>}
            {/* Approved and not sent: the app stopped between the two (decision 030). Declined and expired are said above, in the shop's time. */}
            {request.state === "approved" && request.refund.failureReason && <Line label="Refund">{request.refund.failureReason}</Line>}
          </dl>
        </SectionCard>
      </div>
      {request.state === "waiting" && limitsNow.changed && (
        <Banner tone="info" title="The shop's limits changed since it was asked for">
          <p>{limitsNow.words}</p>
        </Banner>
      )}
      {/* Decided: the form goes with the answer, not once the page's data has been read again (React Router shows the answer first). */}
      {viewer.mayDecide && !answer?.ok ? (
        <Decide data={data} answer={answer} />
      ) : (
        request.state === "waiting" && (
          <Banner tone="info">
            <p>{viewer.why}</p>
            <p>{data.approvers}</p>
          </Banner>
        )
      )}
    </BlockStack>
  );
}
