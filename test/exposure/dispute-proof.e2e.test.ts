import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop } from "../support/sessions";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// The refund's proof added to a dispute's evidence from the evidence page (issue 43): once, with
// Shopify's answer shown, only where the shop granted the permission to write dispute evidence.

let h: VerificationHarness;
const DAY = 24 * 3600_000;
const ROUTE = "routes/app.refunds.$id";
const DISPUTES_SCOPE = "read_shopify_payments_disputes";
const EVIDENCE_WRITE_SCOPE = "write_shopify_payments_dispute_evidences";

beforeAll(async () => {
  h = await startVerificationHarness("dispute-proof-shop.myshopify.com");
  h.shop.grantedScopes.add(DISPUTES_SCOPE);
  h.shop.grantedScopes.add(EVIDENCE_WRITE_SCOPE);
});
afterAll(async () => h.close());

const asStaff = () => embeddedFetch(h.app.url, h.domain, "77");
const pageOf = async (operationId: string) => {
  const response = await asStaff()(dataPath(`/app/refunds/${operationId}`, ROUTE));
  expect(response.status).toBe(200);
  return response.json();
};
const addProof = (operationId: string, fields: Record<string, string>, as = asStaff()) =>
  as(dataPath(`/app/refunds/${operationId}`, ROUTE), { method: "POST", body: new URLSearchParams({ intent: "add_proof", ...fields }) });
/** disputeEvidenceUpdate requests the fake executed for this shop. */
const proofUpdates = () => h.app.shopify.api(h.domain).stats.byOperation.DisputeProofAdd ?? 0;

/** A refund verified, then a chargeback saying the refund never came, delivered and judged: the page shows the proof to send. */
async function disputedRefund(amount = "40.00") {
  const order = h.shop.createOrder({ amount: "100.00" });
  const refund = h.shop.createRefund(order.id, { amount });
  expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
  await h.settle();
  await h.worker.runExposures();
  const op = await operationFor(h.db, refundGid(refund.id));
  expect(op.status).toBe("VERIFIED");
  h.clock.ms += DAY;
  const dispute = h.shop.createDispute(order.id, { amount: "100.00", reason: "CREDIT_NOT_PROCESSED" });
  await h.app.shopify.flushWebhooks();
  await h.worker.runExposures();
  const page = await pageOf(op.id);
  expect(page.exposure.state).toBe("at_risk");
  return { order, refund, op, dispute, page };
}

/** What the page's button posts: the dispute and the exposure's revision it showed. */
const shownForm = (page: { exposure: { disputeProof: { kind: string; disputeId?: string; revision?: number } } }) => {
  expect(page.exposure.disputeProof).toMatchObject({ kind: "sendable" });
  return { dispute: String(page.exposure.disputeProof.disputeId), revision: String(page.exposure.disputeProof.revision) };
};

describe("adding the refund's proof to the dispute", () => {
  it("one click saves the proof in the dispute's evidence, keeps what the merchant wrote, does not submit it, and the page says so", async () => {
    const { op, dispute, page } = await disputedRefund("40.00");
    dispute.evidence.text.uncategorizedText = "Tracking: 1Z999";
    const before = proofUpdates();
    const response = await addProof(op.id, shownForm(page));
    expect(response.status).toBe(200);
    expect((await response.json()).message).toMatch(/^Added to the dispute's evidence\. Submit the evidence in Shopify admin/);
    expect(proofUpdates()).toBe(before + 1);
    // Read back from the fake Shopify: the merchant's text, then the proof the page shows.
    const saved = dispute.evidence.text.uncategorizedText ?? "";
    expect(saved.startsWith("Tracking: 1Z999\n\n")).toBe(true);
    expect(saved).toContain(`Refunded: $40.00 on ${page.times[page.exposure.proof.refundedAt]}`);
    expect(dispute.evidence.submitted).toBe(false);
    expect(dispute.status).toBe("NEEDS_RESPONSE");
    const after = await pageOf(op.id);
    expect(after.exposure.disputeProof).toMatchObject({ kind: "added" });
    expect(after.times[after.exposure.disputeProof.at]).toBeDefined();
    // A second click, from the same page: nothing more is sent.
    const again = await addProof(op.id, shownForm(page));
    expect(again.status).toBe(409);
    expect(proofUpdates()).toBe(before + 1);
  });

  it("two clicks at the same instant make one evidence update", async () => {
    const { op, dispute, page } = await disputedRefund("35.00");
    const before = proofUpdates();
    const form = shownForm(page);
    const statuses = (await Promise.all([addProof(op.id, form), addProof(op.id, form)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect(proofUpdates()).toBe(before + 1);
    expect(dispute.evidence.text.uncategorizedText?.match(/Refunded: /g)).toHaveLength(1);
  });

  it("a dispute Shopify already decided (the page not yet told): Shopify's refusal is shown in words and kept, nothing sent again", async () => {
    const { op, dispute, page } = await disputedRefund("25.00");
    // Lost in Shopify with no disputes/update sent (the fake sends none while the disputes scope is
    // withdrawn: a lost webhook), so the page still shows it open.
    h.shop.grantedScopes.delete(DISPUTES_SCOPE);
    h.shop.updateDispute(dispute.id, { status: "LOST" });
    h.shop.grantedScopes.add(DISPUTES_SCOPE);
    const before = proofUpdates();
    const response = await addProof(op.id, shownForm(page));
    expect(response.status).toBe(409);
    expect((await response.json()).message).toMatch(/already submitted or the dispute is decided/);
    expect(proofUpdates()).toBe(before + 1);
    const after = await pageOf(op.id);
    expect(after.exposure.disputeProof).toMatchObject({ kind: "refused", answer: expect.stringContaining("Evidence already accepted.") });
    expect((await addProof(op.id, shownForm(page))).status).toBe(409);
    expect(proofUpdates()).toBe(before + 1);
  });

  it("without the permission to write dispute evidence: no button, the reason and the permission named, and a forged post sends nothing", async () => {
    h.shop.grantedScopes.delete(EVIDENCE_WRITE_SCOPE);
    try {
      const { op, dispute, page } = await disputedRefund("15.00");
      expect(page.exposure.disputeProof).toEqual({ kind: "not_granted", missing: [EVIDENCE_WRITE_SCOPE] });
      const before = proofUpdates();
      const exposure = await h.db.exposure.findUniqueOrThrow({ where: { operationId: op.id } });
      const forged = { dispute: page.exposure.disputes[0].id, revision: String(exposure.revision) };
      const response = await addProof(op.id, forged);
      expect(response.status).toBe(403);
      expect((await response.json()).message).toContain(EVIDENCE_WRITE_SCOPE);
      expect(proofUpdates()).toBe(before);
      expect(dispute.evidence.text.uncategorizedText ?? null).toBeNull();
      // Shopify refused before anything was sent: the claim is released, to be tried once the permission is granted.
      expect((await h.db.exposure.findUniqueOrThrow({ where: { operationId: op.id } })).proofSentAt).toBeNull();
    } finally {
      h.shop.grantedScopes.add(EVIDENCE_WRITE_SCOPE);
    }
  });

  it("another shop's refund id is not found, and a page older than the exposure or a dispute not on it is refused with words", async () => {
    const otherDomain = "dispute-proof-neighbour.myshopify.com";
    await installShop(h.db, h.app.shopify, otherDomain);
    const other = h.app.shopify.shop(otherDomain);
    const theirOrder = other.createOrder({ amount: "10.00" });
    const theirRefund = other.createRefund(theirOrder.id, { amount: "10.00" });
    expect((await h.deliver(newDelivery("refunds/create", otherDomain, refundWebhookBody(other, theirRefund), h.clock.now()))).status).toBe(200);
    await h.settle();
    await h.worker.runExposures();
    const theirs = await operationFor(h.db, refundGid(theirRefund.id));
    const { op, page } = await disputedRefund("20.00");
    const form = shownForm(page);
    const before = proofUpdates();
    expect((await addProof(theirs.id, form)).status).toBe(404);
    const stale = await addProof(op.id, { ...form, revision: String(Number(form.revision) + 7) });
    expect(stale.status).toBe(409);
    expect((await stale.json()).message).toBe("This page is out of date. Reload it and try again.");
    expect((await addProof(op.id, { ...form, dispute: "gid://shopify/OrderDisputeSummary/1" })).status).toBe(409);
    expect((await addProof(op.id, { revision: form.revision })).status).toBe(422);
    expect(proofUpdates()).toBe(before);
  });
});
