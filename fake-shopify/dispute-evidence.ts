import { disputeByEvidenceGid, readableEvidence } from "./dispute-views";
import { EVIDENCE_TEXT_FIELDS, isFinal, submitEvidence } from "./disputes";
import type { FakeShop } from "./shop";
import { accessDenied, type Views } from "./views";

/** The 2026-10 schema's access metadata of disputeEvidenceUpdate (it adds staff permissions an app's token does not have). */
export const EVIDENCE_WRITE_ACCESS = "`write_shopify_payments_dispute_evidences` access scope.";

/** ShopifyPaymentsDisputeEvidenceUpdateInput's file fields: each takes an uploaded file's id (ShopifyPaymentsDisputeFileUploadUpdateInput). */
const FILE_FIELDS = [
  "cancellationPolicyFile",
  "customerCommunicationFile",
  "refundPolicyFile",
  "serviceDocumentationFile",
  "shippingDocumentationFile",
  "uncategorizedFile",
] as const;

export type EvidenceInput = Record<string, unknown> & { submitEvidence?: boolean | null; shippingAddress?: Record<string, string | null> | null };

type Code = "DISPUTE_EVIDENCE_NOT_FOUND" | "EVIDENCE_ALREADY_ACCEPTED" | "EVIDENCE_PAST_DUE_DATE" | "FILE_NOT_FOUND";

/**
 * disputeEvidenceUpdate: records the evidence on the dispute and, with `submitEvidence`, sends it
 * (the dispute is UNDER_REVIEW, evidenceSentOn now, disputes/update). The user errors are
 * DisputeEvidenceUpdateUserErrorCode's, their messages the enum's descriptions (Shopify documents
 * no other wording): evidence not found; already submitted, or the dispute already decided
 * (EVIDENCE_ALREADY_ACCEPTED); past evidenceDueBy. This fake has no staged uploads, so any file is
 * FILE_NOT_FOUND.
 */
export function disputeEvidenceUpdate(shop: FakeShop, views: Views, args: { id: string; input: EvidenceInput }) {
  if (!shop.hasScope("write_shopify_payments_dispute_evidences")) throw accessDenied("disputeEvidenceUpdate", EVIDENCE_WRITE_ACCESS);
  const refused = (code: Code, message: string, field: string[] | null = null) => ({ disputeEvidence: null, userErrors: [{ code, field, message }] });
  const dispute = disputeByEvidenceGid(shop, args.id);
  if (!dispute) return refused("DISPUTE_EVIDENCE_NOT_FOUND", "Dispute evidence could not be found.", ["id"]);
  if (dispute.evidence.submitted || isFinal(dispute.status)) return refused("EVIDENCE_ALREADY_ACCEPTED", "Evidence already accepted.");
  if (dispute.evidenceDueBy && shop.now().getTime() > dispute.evidenceDueBy.getTime()) return refused("EVIDENCE_PAST_DUE_DATE", "Evidence past due date.");
  const file = FILE_FIELDS.find((f) => args.input[f] != null);
  if (file) return refused("FILE_NOT_FOUND", "File upload failed. Please try again.", [file, "id"]);
  const { evidence } = dispute;
  for (const field of EVIDENCE_TEXT_FIELDS) if (field in args.input) evidence.text[field] = (args.input[field] as string | null) ?? null;
  if ("shippingAddress" in args.input) evidence.shippingAddress = args.input.shippingAddress ?? null;
  if (args.input.submitEvidence) submitEvidence(shop, dispute);
  return { disputeEvidence: () => readableEvidence(shop, views, dispute), userErrors: [] };
}
