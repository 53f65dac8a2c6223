import db from "../db.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { loadRefundDetail } from "../dashboard/detail.server";
import { requestRecheck, resolveReview, reviewQueue } from "./review.server";

const notFound = () => new Response("No such refund in this shop", { status: 404 });

/** The detail page's data; another shop's refund id is a 404, never data. */
export async function refundDetail(shop: string, id: string, now: Date) {
  const detail = await loadRefundDetail(db, REFUND_CREATED, shop, id, now);
  if (!detail) throw notFound();
  return detail;
}

export async function refundAction(shop: string, id: string, form: FormData, actor: string, now: Date) {
  const intent = form.get("intent");
  const outcome =
    intent === "resolve"
      ? await resolveReview(db, shop, id, Number(form.get("revision")), String(form.get("note") ?? ""), actor, now)
      : intent === "recheck"
        ? await requestRecheck(db, shop, id, actor, now)
        : ({ ok: false, status: 422, message: "Unknown action." } as const);
  if (!outcome.ok && outcome.status === 404) throw notFound();
  return outcome.ok
    ? { ok: true as const, status: 200, message: intent === "resolve" ? "Resolved. The note is in the audit trail." : "Re-check requested: the worker reads this refund back on its next pass." }
    : outcome;
}

export async function reviewQueueData(shop: string, now: Date) {
  return { items: await reviewQueue(db, REFUND_CREATED.contract, shop), now: now.toISOString() };
}
