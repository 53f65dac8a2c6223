import type { Exposure, PrismaClient } from "@prisma/client";
import { lockName, withLock } from "../lib/db/locks";
import { readStored } from "../lib/db/stored-json";
import { moneyView } from "../settlement/view";
import { STALE_PAGE } from "../lib/forms/read-form";
import { moneyKnowledge } from "../settlement/money.server";
import { DISPUTE_EVIDENCE_QUERY, DISPUTE_PROOF_ADD_MUTATION, QUERY_COSTS } from "../shopify/admin/documents";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { readGrantedScopes } from "../shops/scopes.server";
import { shopTimeZone } from "../shops/profile.server";
import { formatInstant } from "../lib/time/format";
import { money } from "../verdicts/words";
import { noSuchRefund, reasonFacts } from "../verdicts/rows.server";
import { DISPUTE_PROOF_SCOPES, missingProofScopes, proofText, refundProofFacts, refusalWords, withProof, type DisputeProofView } from "./dispute-proof";
import { OPEN_DISPUTE, paymentsDisputeGid } from "./order-exposure";
import { storedExposure } from "./view";

/** A send with no answer this long after it began is taken to have died with its request: it may be tried again (sending again adds nothing twice). */
const SEND_LAPSES_MS = 2 * 60_000;

/** One request at a time adds an exposure's proof to its dispute. */
const disputeProofLock = (shop: string, exposureId: string) => lockName(shop, "dispute-proof", exposureId);

export type AddProofOutcome =
  { ok: true; status: 200; message: string } | { ok: false; status: 403 | 409 | 422 | 503; message: string; fieldErrors?: Partial<Record<string, string>> };

/** The stored exposure's disputes that are open now, as the page showed them. */
function openDisputes(observed: string | null): string[] {
  const stored = readStored(storedExposure, observed);
  return (stored?.order_disputes.disputes ?? []).filter((d) => OPEN_DISPUTE.includes(d.status)).map((d) => d.id);
}

/** The scopes the shop granted, as Shopify says now; as its offline session last recorded them when Shopify does not answer. */
async function grantedScopes(db: PrismaClient, gateway: ShopifyGateway, shop: string): Promise<string[]> {
  const read = await readGrantedScopes(gateway, shop);
  if (read.ok) return read.scopes;
  const session = await db.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } });
  return (session?.scope ?? "").split(",").filter(Boolean);
}

/**
 * The proof's state for the evidence page: what Shopify answered once it was sent; else, for an
 * exposure with an open dispute, the button (the shop granted what sending needs, asked of Shopify
 * with its own token: 2 points, only for such a page) or the permissions missing. Null otherwise.
 */
export async function disputeProofOf(db: PrismaClient, gateway: ShopifyGateway, shop: string, operationId: string): Promise<DisputeProofView | null> {
  const row = await db.exposure.findFirst({
    where: { shop, operationId },
    select: { status: true, observed: true, revision: true, proofSentAt: true, proofAnswer: true, proofAddedAt: true },
  });
  if (!row) return null;
  if (row.proofAddedAt) return { kind: "added", at: row.proofAddedAt.toISOString() };
  if (row.proofSentAt && row.proofAnswer) return { kind: "refused", answer: row.proofAnswer, at: row.proofSentAt.toISOString() };
  if (row.proofSentAt) return { kind: "sending", since: row.proofSentAt.toISOString() };
  const [disputeId] = openDisputes(row.observed);
  if (row.status !== "CONTRADICTED" || !disputeId) return null;
  const missing = missingProofScopes(await grantedScopes(db, gateway, shop));
  return missing.length ? { kind: "not_granted", missing } : { kind: "sendable", disputeId, revision: row.revision };
}

/** The refund's proof as the evidence page shows it, in the shop's time zone: the text saved is the text the merchant saw. */
async function proofTextOf(db: PrismaClient, gateway: ShopifyGateway, shop: string, operationId: string, now: Date): Promise<string | null> {
  const op = await db.operation.findFirst({ where: { id: operationId, shop } });
  if (!op) return null;
  const followed = await moneyKnowledge(db, op, now);
  const requested = reasonFacts(op).requested;
  const proof = refundProofFacts(
    requested.amount !== null && requested.currency ? money(requested.amount, requested.currency) : null,
    op.startedAt.toISOString(),
    moneyView(followed.knowledge, followed.settlement, null).followed,
  );
  const timeZone = await shopTimeZone(db, shop, { gateway, now });
  return proofText(proof, { [proof.refundedAt]: formatInstant(proof.refundedAt, timeZone) });
}

/** Why a second request sends nothing: the proof is on its way, or Shopify answered. */
const alreadyWords = (row: { proofAddedAt: Date | null; proofAnswer: string | null }) =>
  row.proofAddedAt
    ? "The proof is already in the dispute's evidence: nothing was sent again."
    : row.proofAnswer
      ? `Shopify already answered: ${row.proofAnswer}`
      : "The proof is being added to the dispute's evidence now: nothing was sent again.";

type ProofAsked = { shop: string; operationId: string; dispute: string; revision: number };

/** Why this request sends nothing, as the exposure stands: the proof sent (and not lapsed) or answered, the page out of date, the dispute closed. */
function refusal(row: Exposure, proof: ProofAsked, now: Date): AddProofOutcome | null {
  if (row.proofSentAt && (row.proofAnswer || now.getTime() - row.proofSentAt.getTime() < SEND_LAPSES_MS))
    return { ok: false, status: 409, message: alreadyWords(row) };
  if (row.revision !== proof.revision) return { ok: false, status: 409, message: STALE_PAGE };
  if (!openDisputes(row.observed).includes(proof.dispute))
    return { ok: false, status: 409, message: "This dispute is not open on this refund's order any more. Reload the page." };
  return null;
}

/**
 * "Add the refund's proof to the dispute": sent once. One request at a time holds the proof's lock
 * (a second click, or a request at the same instant, is told it is being added and sends nothing);
 * it records when it sent (proofSentAt: the page shows "sending since"), reads the dispute's
 * evidence (its id, and the text the merchant wrote, which is kept), saves the proof there with
 * disputeEvidenceUpdate without submitting it (the merchant submits the evidence in Shopify admin),
 * and stores Shopify's answer. Shopify not answering, or refusing the app's access, clears the
 * record to be tried again; a userError is Shopify's answer about the dispute and is kept.
 */
export async function addRefundProof(db: PrismaClient, gateway: ShopifyGateway, proof: ProofAsked, now: Date): Promise<AddProofOutcome> {
  const row = await db.exposure.findFirst({ where: { shop: proof.shop, operationId: proof.operationId }, select: { id: true } });
  if (!row) throw noSuchRefund();
  // No wait: the holder is adding the proof now. A holder that died lets go when a send would lapse.
  const lock = disputeProofLock(proof.shop, row.id);
  const locked = await withLock(db, lock, () => sendProofOnce(db, gateway, proof, now), { holdMs: SEND_LAPSES_MS, waitMs: 0, clock: () => now });
  if (locked.locked) return locked.value;
  const current = await db.exposure.findUniqueOrThrow({ where: { id: row.id } });
  return refusal(current, proof, now) ?? { ok: false, status: 409, message: alreadyWords(current) };
}

/** The proof sent, holding its lock. */
async function sendProofOnce(db: PrismaClient, gateway: ShopifyGateway, proof: ProofAsked, now: Date): Promise<AddProofOutcome> {
  const { shop, operationId, dispute, revision } = proof;
  const row = await db.exposure.findFirst({ where: { shop, operationId } });
  if (!row) throw noSuchRefund();
  const refused = refusal(row, proof, now);
  if (refused) return refused;

  const text = await proofTextOf(db, gateway, shop, operationId, now);
  if (!text) throw noSuchRefund();

  // Recorded first, for the page; only at the revision the page showed.
  const marked = await db.exposure.updateMany({
    where: { id: row.id, shop, revision, proofAnswer: null },
    data: { proofSentAt: now, proofSentTo: null, proofAddedAt: null },
  });
  if (marked.count === 0) {
    const current = await db.exposure.findFirst({ where: { id: row.id }, select: { proofAddedAt: true, proofAnswer: true, revision: true } });
    return {
      ok: false,
      status: 409,
      message: current && current.revision !== revision ? STALE_PAGE : alreadyWords(current ?? { proofAddedAt: null, proofAnswer: null }),
    };
  }
  const unmark = () => db.exposure.updateMany({ where: { id: row.id, proofSentAt: now, proofAnswer: null }, data: { proofSentAt: null } });
  const notSent = async (status: 403 | 409 | 503, message: string): Promise<AddProofOutcome> => {
    await unmark();
    return { ok: false, status, message };
  };
  const noAccess = `Shopify refused the app access to this dispute's evidence: nothing was added. It needs the permissions ${missingWords()}; copy the proof into the dispute in Shopify admin instead.`;

  const read = await gateway.request(shop, DISPUTE_EVIDENCE_QUERY, { id: paymentsDisputeGid(dispute) }, QUERY_COSTS.disputeEvidence, { waitThrottled: true });
  if (!read.ok) return notSent(read.code === "ACCESS_DENIED" ? 403 : 503, read.code === "ACCESS_DENIED" ? noAccess : SHOPIFY_DID_NOT_ANSWER);
  if (read.fieldErrors.some((e) => e.extensions?.code === "ACCESS_DENIED")) return notSent(403, noAccess);
  const evidence = read.data.node && "disputeEvidence" in read.data.node ? read.data.node.disputeEvidence : null;
  if (!evidence) return notSent(409, "Shopify does not show this dispute's evidence to the app: nothing was added. Reload the page.");

  const sent = await gateway.request(
    shop,
    DISPUTE_PROOF_ADD_MUTATION,
    { id: evidence.id, input: { uncategorizedText: withProof(evidence.uncategorizedText ?? null, text), submitEvidence: false } },
    QUERY_COSTS.disputeProofAdd,
  );
  if (!sent.ok) return notSent(sent.code === "ACCESS_DENIED" ? 403 : 503, sent.code === "ACCESS_DENIED" ? noAccess : SHOPIFY_DID_NOT_ANSWER);
  const payload = sent.data.disputeEvidenceUpdate;
  if (!payload) return notSent(503, SHOPIFY_DID_NOT_ANSWER);
  if (payload.userErrors.length) {
    const answer = refusalWords(payload.userErrors);
    await db.exposure.updateMany({ where: { id: row.id, proofSentAt: now }, data: { proofSentTo: evidence.id, proofAnswer: answer } });
    return { ok: false, status: 409, message: answer };
  }
  await db.exposure.updateMany({
    where: { id: row.id, proofSentAt: now },
    data: { proofSentTo: evidence.id, proofAnswer: "Added to the dispute's evidence.", proofAddedAt: now },
  });
  return { ok: true, status: 200, message: SUBMIT_IN_ADMIN };
}

const SHOPIFY_DID_NOT_ANSWER = "Shopify did not answer: nothing was added to the dispute's evidence. Try again in a minute.";
const SUBMIT_IN_ADMIN =
  "Added to the dispute's evidence. Submit the evidence in Shopify admin (Orders, the order, the chargeback): the app saves it, it does not submit it.";
const missingWords = () => DISPUTE_PROOF_SCOPES.join(" and ");
