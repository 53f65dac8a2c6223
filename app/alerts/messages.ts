import { FINAL_VERDICTS } from "../contracts/schema";
import type { RefundRow } from "../verdicts/rows.server";
import { classLabel, VERDICT_LABELS, money, orderLabel } from "../verdicts/words";
import { formatMoney, toMinorUnits } from "../lib/money/currency";
import { formatInstant } from "../lib/time/format";
import { AT_RISK_CHOICE } from "./exposure-alerts";
import { MONEY_CHOICE } from "./money";
import { OVER_LIMIT } from "./over-limit-alerts";

/** One refund in an alert: its dashboard row and where its evidence page is in Shopify admin. */
export interface AlertItem {
  row: RefundRow;
  evidenceUrl: string;
  /** What happened, when it is not the row's verdict: where a verified refund's money went ("Payout failed"). */
  headline?: string;
}

/** One message, written once for every channel. */
export interface AlertMessage {
  subject: string;
  text: string;
  html: string;
  slack: { text: string; blocks: unknown[] };
}

/** Lines listed one by one; the rest are counted and linked. */
const LISTED = 20;

/** What happened to a refund, in a merchant's words. */
export function whatHappened(row: Pick<RefundRow, "status" | "classes">): string {
  if (row.status === "CONTRADICTED") return row.classes.map(classLabel).join(", ") || "Not what was claimed";
  if (row.status === "FAILED") return "Failed at the payment gateway";
  if (row.status === "UNVERIFIABLE") return "No evidence in Shopify";
  return VERDICT_LABELS[row.status] ?? row.status;
}

/** What happened to the refund of an alert's item: its headline, else its verdict's. */
export const itemHeadline = (item: AlertItem): string => item.headline ?? whatHappened(item.row);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 × duplicate refund, 1 × failed at the payment gateway": what a group holds, most frequent first. */
function tally(whats: string[]): string {
  const counts = new Map<string, number>();
  for (const what of whats) counts.set(what, (counts.get(what) ?? 0) + 1);
  return tallied(counts);
}

function tallied(counts: Map<string, number>): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([what, n]) => `${n} × ${what.charAt(0).toLowerCase()}${what.slice(1)}`)
    .join(", ");
}

/** Money per currency, exactly, from the rows' decimal strings: "$75.00 + €20.00". */
export function totals(rows: Pick<RefundRow, "amount" | "currency">[]): string {
  const sums = new Map<string, bigint>();
  for (const row of rows) {
    if (!row.amount || !row.currency) continue;
    const minor = toMinorUnits(row.amount, row.currency);
    if (minor !== undefined) sums.set(row.currency, (sums.get(row.currency) ?? 0n) + minor);
  }
  return (
    [...sums]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, minor]) => formatMoney(minor, currency))
      .join(" + ") || "no amount recorded"
  );
}

export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
// Slack's mrkdwn: &, < and > are control characters.
export const escapeSlack = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function itemLine(item: AlertItem, timeZone: string) {
  const { row } = item;
  const head = `${itemHeadline(item)}: ${money(row.amount, row.currency)} on ${orderLabel(row)}`;
  const when = row.decidedAt ? formatInstant(row.decidedAt, timeZone) : "";
  return { head, reason: row.reasonText, when };
}

/**
 * An instant alert for a group of verdicts decided close together: one message whether it holds
 * one refund or fifty, each listed with its amount, its order and a link to its evidence.
 */
export function instantAlert(shopName: string, items: AlertItem[], links: { reviewQueue: string }, timeZone: string): AlertMessage {
  const rows = items.map((item) => item.row);
  const subject =
    items.length === 1
      ? `Refund Verifier · ${shopName}: ${itemHeadline(items[0])}, ${money(rows[0].amount, rows[0].currency)} on ${orderLabel(rows[0])}`
      : `Refund Verifier · ${shopName}: ${items.length} refunds need a look (${totals(rows)})`;
  const intro = `${plural(items.length, "refund")} in ${shopName} ${items.length === 1 ? "needs" : "need"} a person: ${tally(items.map(itemHeadline))}. Amount: ${totals(rows)}.`;
  const listed = items.slice(0, LISTED).map((item) => ({ item, line: itemLine(item, timeZone) }));
  const more = items.length - listed.length;
  const moreText = more > 0 ? `…and ${more} more in the review queue: ${links.reviewQueue}` : `Review queue: ${links.reviewQueue}`;

  const text = [
    intro,
    "",
    ...listed.flatMap(({ item, line }) => [`• ${line.head}`, `  ${line.reason}`, `  Decided ${line.when}. Evidence: ${item.evidenceUrl}`]),
    "",
    moreText,
  ].join("\n");
  const html = [
    `<p>${escapeHtml(intro)}</p><ul>`,
    ...listed.map(
      ({ item, line }) =>
        `<li><strong>${escapeHtml(line.head)}</strong><br>${escapeHtml(line.reason)}<br><small>Decided ${escapeHtml(line.when)}.</small> <a href="${escapeHtml(item.evidenceUrl)}">See the evidence</a></li>`,
    ),
    `</ul><p>${more > 0 ? `…and ${more} more. ` : ""}<a href="${escapeHtml(links.reviewQueue)}">Open the review queue</a></p>`,
  ].join("");
  const slackLines = listed.slice(0, 10).map(({ item, line }) => `• <${item.evidenceUrl}|${escapeSlack(line.head)}>: ${escapeSlack(line.reason)}`);
  const slackMore = items.length - slackLines.length;
  const slack = {
    text: escapeSlack(subject),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${escapeSlack(intro)}*` } },
      { type: "section", text: { type: "mrkdwn", text: slackLines.join("\n").slice(0, 2900) } },
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: `${slackMore > 0 ? `…and ${slackMore} more. ` : ""}<${links.reviewQueue}|Open the review queue>` }],
      },
    ],
  };
  return { subject, text, html, slack };
}

/** What the morning digest reports of the shop's day before. */
export interface DigestSummary {
  shopName: string;
  /** The local day reported (YYYY-MM-DD) and the one before it, for "what changed". */
  day: string;
  counts: Record<string, number>;
  previousCounts: Record<string, number>;
  /** Money of the refunds waiting in the review queue, per currency. */
  atRisk: { currency: string; minor: bigint }[];
  openReviews: number;
  oldestOpen: AlertItem | null;
  /** Refunds whose money did not settle, by what happened to it (money alerts of the day). */
  moneyProblems?: { headline: string; count: number }[];
  /** Refunds whose money came to be at risk twice that day, by what puts it at risk (at-risk-twice alerts of the day). */
  atRiskTwice?: { headline: string; count: number }[];
  /** Refunds made outside the app that went over a limit that day: how many, and the first few in words (who, how much, which limit). */
  overLimit?: { count: number; listed: string[] };
  links: { dashboard: string; reviewQueue: string };
}

const DIGEST_VERDICTS = [...FINAL_VERDICTS, "PENDING"];

function change(now: number, before: number): string {
  if (now === before) return "same as the day before";
  return `${Math.abs(now - before)} ${now > before ? "more" : "fewer"} than the day before`;
}

function overLimitLines(overLimit: DigestSummary["overLimit"]): string[] {
  if (!overLimit?.count) return [];
  const more = overLimit.count - overLimit.listed.length;
  return [
    `Refunds over a limit made outside the app: ${overLimit.count}.`,
    ...overLimit.listed.map((sentence) => `Over a limit: ${sentence}`),
    ...(more > 0 ? [`…and ${more} more over a limit in the review queue.`] : []),
  ];
}

/** The daily digest: counts per verdict, money at risk per currency, the review queue and its oldest item, the change since the day before. */
export function digestMessage(summary: DigestSummary, timeZone: string): AlertMessage {
  const total = Object.values(summary.counts).reduce((a, b) => a + b, 0);
  const atRisk = summary.atRisk.length ? summary.atRisk.map((m) => formatMoney(m.minor, m.currency)).join(" + ") : "nothing";
  const subject = `Refund Verifier · ${summary.shopName}: ${summary.day}, ${plural(total, "refund")}, ${plural(summary.openReviews, "open review")}`;
  const verdictLines = DIGEST_VERDICTS.filter((v) => summary.counts[v] || summary.previousCounts[v]).map(
    (v) => `${VERDICT_LABELS[v]}: ${summary.counts[v] ?? 0} (${change(summary.counts[v] ?? 0, summary.previousCounts[v] ?? 0)})`,
  );
  const oldest = summary.oldestOpen ? itemLine(summary.oldestOpen, timeZone) : null;
  const moneyProblems = (summary.moneyProblems ?? []).filter((m) => m.count > 0);
  const moneyCount = moneyProblems.reduce((sum, m) => sum + m.count, 0);
  const twice = (summary.atRiskTwice ?? []).filter((m) => m.count > 0);
  const twiceCount = twice.reduce((sum, m) => sum + m.count, 0);
  const lines = [
    `${summary.shopName} on ${summary.day}: ${plural(total, "refund")} verified or checked.`,
    ...(verdictLines.length ? verdictLines : ["No refunds that day."]),
    ...(moneyCount ? [`Refunds whose money did not settle: ${moneyCount} (${tallied(new Map(moneyProblems.map((m) => [m.headline, m.count])))}).`] : []),
    ...(twiceCount ? [`Refunds whose money is at risk twice: ${twiceCount} (${tallied(new Map(twice.map((m) => [m.headline, m.count])))}).`] : []),
    ...overLimitLines(summary.overLimit),
    `Money at risk (refunds waiting for review): ${atRisk}.`,
    `Review queue: ${plural(summary.openReviews, "open item")}.`,
    ...(oldest && summary.oldestOpen ? [`Oldest open: ${oldest.head}, decided ${oldest.when}. Evidence: ${summary.oldestOpen.evidenceUrl}`] : []),
  ];
  const text = [...lines, "", `Dashboard: ${summary.links.dashboard}`, `Review queue: ${summary.links.reviewQueue}`].join("\n");
  const html = `<p><strong>${escapeHtml(lines[0])}</strong></p><ul>${lines
    .slice(1)
    .map((line) => `<li>${escapeHtml(line)}</li>`)
    .join("")}</ul><p><a href="${escapeHtml(summary.links.dashboard)}">Dashboard</a> · <a href="${escapeHtml(summary.links.reviewQueue)}">Review queue</a></p>`;
  const slack = {
    text: escapeSlack(subject),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${escapeSlack(lines[0])}*\n${lines.slice(1).map(escapeSlack).join("\n")}` } },
      { type: "context", elements: [{ type: "mrkdwn", text: `<${summary.links.dashboard}|Dashboard> · <${summary.links.reviewQueue}|Review queue>` }] },
    ],
  };
  return { subject, text, html, slack };
}

/** "Send a test alert": proves the channel works, and says what will arrive there. */
export function testAlert(shopName: string, verdicts: string[], links: { settings: string }): AlertMessage {
  const found = verdicts.filter((v) => v !== MONEY_CHOICE && v !== AT_RISK_CHOICE && v !== OVER_LIMIT).map((v) => VERDICT_LABELS[v]?.toLowerCase() ?? v);
  const kinds = [
    ...(found.length ? [`found ${found.join(", ")}`] : []),
    ...(verdicts.includes(MONEY_CHOICE) ? ["whose money did not settle (a payout failed, a refund reversed or never settled)"] : []),
    ...(verdicts.includes(AT_RISK_CHOICE) ? ["whose money is at risk twice (a chargeback on the refunded order, more back than paid)"] : []),
    ...(verdicts.includes(OVER_LIMIT) ? ["made outside the app over one of your refund limits"] : []),
  ];
  const what = kinds.length ? `Refunds ${kinds.join(" and refunds ")}` : "Refunds found no verdicts (none are chosen)";
  const subject = `Refund Verifier · ${shopName}: test alert`;
  const text = `This is a test from Refund Verifier for ${shopName}. ${what} will be reported here.\nAlert settings: ${links.settings}`;
  const html = `<p>${escapeHtml(text.split("\n")[0])}</p><p><a href="${escapeHtml(links.settings)}">Alert settings</a></p>`;
  return {
    subject,
    text,
    html,
    slack: {
      text: escapeSlack(subject),
      blocks: [{ type: "section", text: { type: "mrkdwn", text: `${escapeSlack(text.split("\n")[0])}\n<${links.settings}|Alert settings>` } }],
    },
  };
}
