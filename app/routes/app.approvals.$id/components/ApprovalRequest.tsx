import { Form, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { adminOrderUrl } from "../../../components/ui";
import type { ApprovalLoaderData, DecisionAnswer } from "../types";

const STATE_BADGE = {
  waiting: { tone: "attention", label: "Waiting for approval" },
  approved: { tone: "success", label: "Approved" },
  declined: { tone: "critical", label: "Declined" },
  expired: { tone: undefined, label: "Expired" },
} as const;

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="dt" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <Text as="dd">{children}</Text>
    </BlockStack>
  );
}

/** Asked again (a refund on the order since, a risk of paying twice): the approve form carries the person's yes. */
function confirmationsOf(answer: DecisionAnswer | undefined) {
  return {
    another: answer?.code === "RECENT_REFUND",
    risks: answer?.risks ?? [],
  };
}

function Decide({ data, answer }: { data: ApprovalLoaderData; answer: DecisionAnswer | undefined }) {
  const navigation = useNavigation();
  const posting = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const [note, setNote] = useState("");
  const [reason, setReason] = useState("");
  const confirm = confirmationsOf(answer);
  const declineError = answer && !answer.ok && answer.intent === "decline" && answer.code === "INVALID_REASON" ? answer.message : undefined;
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          Your decision
        </Text>
        <Form method="post">
          <input type="hidden" name="intent" value="approve" />
          <input type="hidden" name="limitsRevision" value={data.limitsNow.revision} />
          {confirm.another && <input type="hidden" name="confirmAnother" value="yes" />}
          {confirm.risks.length > 0 && <input type="hidden" name="confirmRisk" value={confirm.risks.join(",")} />}
          <BlockStack gap="200">
            <TextField label="Note (optional)" name="note" value={note} onChange={setNote} autoComplete="off" maxLength={500} />
            <InlineStack align="start">
              <Button submit variant="primary" loading={posting === "approve"} disabled={Boolean(posting)}>
                {confirm.another
                  ? "Yes, another refund: approve"
                  : confirm.risks.length
                    ? "Yes, refund anyway: approve"
                    : `Approve and refund ${data.request.amount}`}
              </Button>
            </InlineStack>
          </BlockStack>
        </Form>
        <Form method="post">
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
              helpText="The person who asked reads it."
              error={declineError}
            />
            <InlineStack align="start">
              <Button submit tone="critical" loading={posting === "decline"} disabled={Boolean(posting)}>
                Decline
              </Button>
            </InlineStack>
          </BlockStack>
        </Form>
      </BlockStack>
    </Card>
  );
}

/** One request for approval: who asked, how much, the order, the limit it went over, and the approve or decline a person can give. */
export function ApprovalRequest({ data, answer }: { data: ApprovalLoaderData; answer: DecisionAnswer | undefined }) {
  const { request, limitsNow, viewer } = data;
  const badge = STATE_BADGE[request.state];
  return (
    <BlockStack gap="400">
      {answer && (
        <Banner tone={answer.ok ? "success" : answer.code === "RECENT_REFUND" || answer.risks?.length ? "warning" : "critical"}>
          <p>{answer.message}</p>
        </Banner>
      )}
      <Card>
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {request.amount} {request.currency} on {request.orderName}
            </Text>
            <Badge tone={badge.tone}>{badge.label}</Badge>
          </InlineStack>
          <Text as="p">{request.limits}</Text>
          <dl>
            <BlockStack gap="200">
              <Line label="Asked by">
                {request.askedBy}, {when(request.askedAt)}
              </Line>
              <Line label="Order">
                <a href={adminOrderUrl(request.orderId)} target="_top">
                  {request.orderName} in Shopify admin
                </a>
              </Line>
              {request.note && <Line label="Note to the customer's refund">{request.note}</Line>}
              {request.state === "waiting" && <Line label="Expires">{when(request.expiresAt)}: nothing is refunded unless someone approves it by then.</Line>}
              {request.decidedBy && request.decidedAt && (
                <Line label={request.state === "approved" ? "Approved by" : "Declined by"}>
                  {request.decidedBy}, {when(request.decidedAt)}
                  {request.decisionNote ? `: ${request.decisionNote}` : ""}
                </Line>
              )}
              {request.limitsWhenDecided && <Line label="Limits when decided">{request.limitsWhenDecided}</Line>}
              {request.refund.failureReason && request.state !== "waiting" && <Line label="Refund">{request.refund.failureReason}</Line>}
            </BlockStack>
          </dl>
        </BlockStack>
      </Card>
      {request.state === "waiting" && limitsNow.changed && (
        <Banner tone="info" title="The shop's limits changed since it was asked for">
          <p>{limitsNow.words}</p>
        </Banner>
      )}
      {viewer.mayDecide ? (
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
