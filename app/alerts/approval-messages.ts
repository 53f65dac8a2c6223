import { formatInstant } from "../lib/time/format";
import { escapeHtml, escapeSlack, type AlertMessage } from "./messages";

/**
 * What the people around a refund request are told (decision 030): the approvers, when a refund
 * asked for in the app went over one of the shop's limits and waits for them; the person who
 * asked, when it was declined or expired. Pure: the facts come in words, but for the instants.
 */

/** AlertDelivery.kind of the messages asking approvers (email, Slack, Flow), and of those telling the person who asked. */
export const ASK_KIND = "approval";
export const DECISION_KIND = "approval decision";

/** Each asking message is made once per request, channel and recipient (a staff member's user id, the shop's Slack, the Flow trigger). */
export const askKey = (requestId: string, channel: string, recipient: string) => `approval:${requestId}:asked:${channel}:${recipient}`;
export const decisionKey = (requestId: string, recipient: string) => `approval:${requestId}:decided:email:${recipient}`;

/** The request an asking message is about, read back from its key (null for any other message). */
export function requestOfAskKey(dedupeKey: string): string | null {
  return /^approval:([^:]+):asked:/.exec(dedupeKey)?.[1] ?? null;
}

/** A refund request as its messages name it. */
export interface RequestFacts {
  shopName: string;
  askedBy: string;
  /** "$180.00": the record's minor units and currency through formatMoney. */
  amount: string;
  orderName: string;
  /** The limits it went over when asked for, in words (app/guardrails/limits.ts breachesSentence); "" when unreadable. */
  limits: string;
  /** The refund's note, as the person who asked typed it. */
  note: string | null;
  expiresAt: Date;
  requestUrl: string;
}

const subjectOf = (facts: RequestFacts, what: string) => `Refund Verifier · ${facts.shopName}: ${what}`;

function message(subject: string, lines: string[], link: { label: string; url: string }): AlertMessage {
  return {
    subject,
    text: [...lines, "", `${link.label}: ${link.url}`].join("\n"),
    html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")}<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    slack: {
      text: escapeSlack(subject),
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: lines.map(escapeSlack).join("\n").slice(0, 2900) } },
        { type: "context", elements: [{ type: "mrkdwn", text: `<${link.url}|${link.label}>` }] },
      ],
    },
  };
}

/** To the approvers (each by email, and the shop's Slack): who asked, how much, on which order, over which limit, until when, and the link to decide. */
export function askMessage(facts: RequestFacts, timeZone: string): AlertMessage {
  const limits = facts.limits || "the request's page says which.";
  return message(
    subjectOf(facts, `${facts.askedBy} asks you to approve a ${facts.amount} refund on ${facts.orderName}`),
    [
      `${facts.askedBy} asked to refund ${facts.amount} on ${facts.orderName}, over the shop's refund limits: ${limits}`,
      ...(facts.note ? [`The refund's note: ${facts.note}`] : []),
      `Nothing has been refunded yet. It waits for an approver until ${formatInstant(facts.expiresAt.toISOString(), timeZone)}; then it expires and nothing is refunded.`,
    ],
    { label: "Approve or decline", url: facts.requestUrl },
  );
}

/** To the person who asked: who declined it and why. */
export function declinedMessage(facts: RequestFacts, decline: { by: string; reason: string | null }): AlertMessage {
  // The reason as the approver typed it, without a full stop of its own before ours.
  const reason = decline.reason?.trim().replace(/\.$/, "") || "no reason given";
  return message(
    subjectOf(facts, `your ${facts.amount} refund on ${facts.orderName} was declined`),
    [`${decline.by} declined your refund of ${facts.amount} on ${facts.orderName}: ${reason}. Nothing was refunded.`],
    { label: "The request", url: facts.requestUrl },
  );
}

/** To the person who asked: nobody decided in time. */
export function expiredMessage(facts: RequestFacts, timeZone: string): AlertMessage {
  return message(
    subjectOf(facts, `your ${facts.amount} refund on ${facts.orderName} expired`),
    [
      `Nobody approved your refund of ${facts.amount} on ${facts.orderName} within a day: it expired at ${formatInstant(facts.expiresAt.toISOString(), timeZone)}. Nothing was refunded; ask again if it is still due.`,
    ],
    { label: "The request", url: facts.requestUrl },
  );
}
