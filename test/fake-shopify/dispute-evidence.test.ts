import { describe, expect, it } from "vitest";
import type { FakeShopify } from "../../fake-shopify/server";
import { graphql, setup } from "./support";

const T0 = Date.parse("2026-12-01T10:00:00Z");
const DAY = 86_400_000;
const disputeGid = (id: bigint) => `gid://shopify/ShopifyPaymentsDispute/${id}`;
const evidenceGid = (id: bigint) => `gid://shopify/ShopifyPaymentsDisputeEvidence/${id}`;

const UPDATE = `mutation ($id: ID!, $input: ShopifyPaymentsDisputeEvidenceUpdateInput!) {
  disputeEvidenceUpdate(id: $id, input: $input) {
    disputeEvidence { id submitted uncategorizedText customerEmailAddress shippingAddress { address1 city zip } dispute { id status evidenceSentOn } }
    userErrors { code field message }
  }
}`;

const EVIDENCE = `query ($id: ID!) { dispute(id: $id) { disputeEvidence { id submitted refundRefusalExplanation } } }`;

const at = (shopify: FakeShopify, ms: number) => (shopify.now = () => new Date(ms));

function disputed(scopes: string[] = ["read_shopify_payments_disputes", "write_shopify_payments_dispute_evidences"]) {
  const harness = setup();
  at(harness.shopify, T0);
  for (const scope of scopes) harness.shop.grantedScopes.add(scope);
  const order = harness.shop.createOrder({ amount: "100.00" });
  const dispute = harness.shop.createDispute(order.id);
  return { ...harness, dispute };
}

describe("disputeEvidenceUpdate", () => {
  it("records the evidence; submitting it sends it: UNDER_REVIEW, evidenceSentOn now", async () => {
    const { shopify, shop, dispute } = disputed();
    at(shopify, T0 + DAY);
    const draft = await graphql(shopify, UPDATE, {
      id: evidenceGid(dispute.evidence.id),
      input: {
        uncategorizedText: "Delivered, signed for.",
        customerEmailAddress: "jane@example.com",
        shippingAddress: { address1: "1 Main St", city: "Ottawa", zip: "K1A 0A1" },
      },
    });
    expect(draft.body.errors).toBeUndefined();
    expect(draft.body.data.disputeEvidenceUpdate).toEqual({
      disputeEvidence: {
        id: evidenceGid(dispute.evidence.id),
        submitted: false,
        uncategorizedText: "Delivered, signed for.",
        customerEmailAddress: "jane@example.com",
        shippingAddress: { address1: "1 Main St", city: "Ottawa", zip: "K1A 0A1" },
        dispute: { id: disputeGid(dispute.id), status: "NEEDS_RESPONSE", evidenceSentOn: null },
      },
      userErrors: [],
    });
    const sent = await graphql(shopify, UPDATE, { id: evidenceGid(dispute.evidence.id), input: { submitEvidence: true } });
    expect(sent.body.data.disputeEvidenceUpdate.disputeEvidence).toMatchObject({
      submitted: true,
      uncategorizedText: "Delivered, signed for.",
      dispute: { status: "UNDER_REVIEW", evidenceSentOn: "2026-12-02T10:00:00Z" },
    });
    expect(shop.disputes.get(dispute.id)!.evidenceSentOn).toEqual(new Date(T0 + DAY));
  });

  it("refuses once the evidence was submitted, and on a decided dispute: EVIDENCE_ALREADY_ACCEPTED", async () => {
    const { shopify, shop, dispute } = disputed();
    await graphql(shopify, UPDATE, { id: evidenceGid(dispute.evidence.id), input: { submitEvidence: true } });
    const again = await graphql(shopify, UPDATE, { id: evidenceGid(dispute.evidence.id), input: { uncategorizedText: "more" } });
    expect(again.body.data.disputeEvidenceUpdate).toEqual({
      disputeEvidence: null,
      userErrors: [{ code: "EVIDENCE_ALREADY_ACCEPTED", field: null, message: "Evidence already accepted." }],
    });
    const accepted = shop.createDispute(dispute.orderId);
    shop.updateDispute(accepted.id, { status: "ACCEPTED" });
    const late = await graphql(shopify, UPDATE, { id: evidenceGid(accepted.evidence.id), input: { uncategorizedText: "x" } });
    expect(late.body.data.disputeEvidenceUpdate.userErrors[0].code).toBe("EVIDENCE_ALREADY_ACCEPTED");
    expect(accepted.evidence.text).toEqual({});
  });

  it("refuses past evidenceDueBy, an unknown evidence id, and a file (the fake has no uploads)", async () => {
    const { shopify, dispute } = disputed();
    const file = await graphql(shopify, UPDATE, {
      id: evidenceGid(dispute.evidence.id),
      input: { uncategorizedFile: { id: "gid://shopify/ShopifyPaymentsDisputeFileUpload/1" } },
    });
    expect(file.body.data.disputeEvidenceUpdate.userErrors).toEqual([
      { code: "FILE_NOT_FOUND", field: ["uncategorizedFile", "id"], message: "File upload failed. Please try again." },
    ]);
    const unknown = await graphql(shopify, UPDATE, { id: evidenceGid(1n), input: {} });
    expect(unknown.body.data.disputeEvidenceUpdate.userErrors).toEqual([
      { code: "DISPUTE_EVIDENCE_NOT_FOUND", field: ["id"], message: "Dispute evidence could not be found." },
    ]);
    at(shopify, T0 + 8 * DAY);
    const late = await graphql(shopify, UPDATE, { id: evidenceGid(dispute.evidence.id), input: { submitEvidence: true } });
    expect(late.body.data.disputeEvidenceUpdate.userErrors).toEqual([{ code: "EVIDENCE_PAST_DUE_DATE", field: null, message: "Evidence past due date." }]);
    expect(dispute.status).toBe("NEEDS_RESPONSE");
  });

  it("needs write_shopify_payments_dispute_evidences: ACCESS_DENIED at the mutation, nothing recorded", async () => {
    const { shopify, dispute } = disputed(["read_shopify_payments_disputes"]);
    const { body } = await graphql(shopify, UPDATE, { id: evidenceGid(dispute.evidence.id), input: { uncategorizedText: "x", submitEvidence: true } });
    expect(body.data.disputeEvidenceUpdate).toBeNull();
    expect(body.errors[0]).toMatchObject({
      path: ["disputeEvidenceUpdate"],
      extensions: { code: "ACCESS_DENIED", requiredAccess: "`write_shopify_payments_dispute_evidences` access scope." },
    });
    expect(dispute.evidence).toMatchObject({ submitted: false, text: {} });
  });

  it("reading the evidence needs read_shopify_payments_dispute_evidences (or the write scope): without it the non-null field nulls the dispute", async () => {
    const { shopify, shop, dispute } = disputed(["read_shopify_payments_disputes"]);
    const denied = await graphql(shopify, EVIDENCE, { id: disputeGid(dispute.id) });
    expect(denied.body.data.dispute).toBeNull();
    expect(denied.body.errors[0]).toMatchObject({ path: ["dispute", "disputeEvidence"], extensions: { code: "ACCESS_DENIED" } });
    shop.grantedScopes.add("read_shopify_payments_dispute_evidences");
    const read = await graphql(shopify, EVIDENCE, { id: disputeGid(dispute.id) });
    expect(read.body.data.dispute.disputeEvidence).toEqual({ id: evidenceGid(dispute.evidence.id), submitted: false, refundRefusalExplanation: null });
    const byId = await graphql(
      shopify,
      `
        query ($id: ID!) {
          disputeEvidence(id: $id) {
            dispute {
              id
            }
          }
        }
      `,
      { id: evidenceGid(dispute.evidence.id) },
    );
    expect(byId.body.data.disputeEvidence.dispute.id).toBe(disputeGid(dispute.id));
  });
});
