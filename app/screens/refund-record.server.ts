import { verdictsByRef } from "../refunds/attempts.server";
import { recordView } from "../refunds/records.server";
import type { ScreenContext } from "./context.server";

/** GET /app/api/refunds/:id: one of the shop's refund records, read-only, with its verdict; another shop's record is a 404. */
export async function load({ db, shop, params, cors }: ScreenContext) {
  const record = await db.refundRecord.findFirst({ where: { id: params.id ?? "", shop } });
  if (!record) throw cors(new Response("No such refund record in this shop", { status: 404 }));
  const op = record.refundRef ? (await verdictsByRef(db, shop, [record.refundRef])).get(record.refundRef) : undefined;
  return cors(Response.json(recordView(record, op ? { status: op.status, reason: op.reason } : null)));
}
