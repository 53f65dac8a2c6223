import type { Evaluation, Observation, Operation, ReviewEvent, WebhookDelivery } from "@prisma/client";
import type { ApprovalAudit, LimitsAudit } from "../guardrails/audit.server";
import { VERDICT_LABELS } from "../verdicts/words";

/**
 * One step of a refund's story. `title` and `detail` are a merchant's words, shown on the page;
 * `technical` holds the engine's (delivery ids, API versions, verdict codes, attempts), shown only
 * inside "Technical details" and the JSON view.
 */
export interface TimelineEntry {
  at: string;
  kind: "webhook" | "observation" | "evaluation" | "review";
  title: string;
  detail: string;
  technical: string;
  tone: "success" | "critical" | "warning" | "info" | undefined;
}

/** What a refund's story is told from: its operation's rows, its deliveries, who is who, and the request it waited on. */
export interface StoryOf {
  op: Operation & { evaluations: Evaluation[]; observations: Observation[]; reviewEvents: ReviewEvent[] };
  deliveries: WebhookDelivery[];
  /** People's names by the actors review events keep (app/staff staffNames). */
  people: ReadonlyMap<string, string>;
  limits: LimitsAudit | null;
}

/** The refund's story in time order: Shopify's notices, its reads, the checks, people's reviews, and the request for approval. */
export function timelineOf({ op, deliveries, people, limits }: StoryOf): TimelineEntry[] {
  return [
    ...deliveries.map((d) => ({
      at: d.receivedAt.toISOString(),
      kind: "webhook" as const,
      title: "Shopify told the app about this refund",
      detail: d.redeliveries ? `Shopify sent the same notice ${d.redeliveries} more time${d.redeliveries > 1 ? "s" : ""}; it counts once.` : "",
      technical: `refunds/create webhook ${d.webhookId}, API ${d.apiVersion}${d.redeliveries ? `; ${d.redeliveries} redeliver${d.redeliveries > 1 ? "ies" : "y"} dropped as duplicates` : ""}`,
      tone: "info" as const,
    })),
    ...op.observations
      .filter((o) => o.channel === "refund_readback")
      .map((o) => {
        const shown = o.ok && Boolean(JSON.parse(o.data ?? "{}")?.data?.refund);
        return {
          at: o.observedAt.toISOString(),
          kind: "observation" as const,
          title: !o.ok ? "Shopify did not answer" : shown ? "Found in Shopify" : "Not in Shopify yet",
          detail: !o.ok
            ? "This does not count for or against the refund; the app asks again."
            : shown
              ? ""
              : "Shopify can take a few seconds to show a new refund; the app looks again.",
          technical: `refund_readback ${o.ok ? (shown ? "returned the refund" : "returned no refund") : `failed: ${o.error ?? "no error"}`}${o.apiVersion ? `, API ${o.apiVersion}` : ""}`,
          tone: o.ok ? undefined : ("warning" as const),
        };
      }),
    ...op.evaluations.map((e) => ({
      at: e.evaluatedAt.toISOString(),
      kind: "evaluation" as const,
      title: e.verdict === "PENDING" ? "Checked: not decided yet" : `Checked: ${VERDICT_LABELS[e.verdict] ?? e.verdict}`,
      detail: "",
      technical: `evaluation ${e.verdict}, attempt ${e.attempt}`,
      tone: e.verdict === "VERIFIED" ? ("success" as const) : e.verdict === "PENDING" ? undefined : ("critical" as const),
    })),
    ...op.reviewEvents.map((r) => ({
      at: r.createdAt.toISOString(),
      kind: "review" as const,
      title: r.action === "resolved" ? `Resolved by ${people.get(r.actor)}` : `Re-check requested by ${people.get(r.actor)}`,
      detail: r.note ?? "",
      technical: `review ${r.action} by ${r.actor}`,
      tone: "info" as const,
    })),
    ...(limits?.approval ? approvalSteps(limits.approval) : []),
  ].sort((a, b) => a.at.localeCompare(b.at));
}

/** The request a refund over a limit waited on, as steps of its story: asked, then approved (a refund that was sent was approved). */
function approvalSteps(approval: ApprovalAudit): TimelineEntry[] {
  const asked: TimelineEntry = {
    at: approval.askedAt,
    kind: "review",
    title: `Asked for approval by ${approval.askedBy}`,
    detail: approval.over,
    technical: `refund approval ${approval.requestId} asked`,
    tone: "info",
  };
  if (!approval.decidedAt || !approval.decidedBy) return [asked];
  const decided: TimelineEntry = {
    at: approval.decidedAt,
    kind: "review",
    title: `${approval.state === "approved" ? "Approved" : "Declined"} by ${approval.decidedBy}`,
    detail: approval.note ?? "",
    technical: `refund approval ${approval.requestId} ${approval.state}`,
    tone: "info",
  };
  return [asked, decided];
}
