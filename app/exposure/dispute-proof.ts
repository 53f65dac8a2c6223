/** The refund's proof a dispute asks for (a customer who disputes after a refund is beaten by it): what the evidence page shows and sends. */
export interface RefundProof {
  amount: string | null;
  refundedAt: string;
  references: string[];
  payout: string | null;
}

/** The form intent of "Add the refund's proof to the dispute". */
export const ADD_PROOF_INTENT = "add_proof";

/** Reading the dispute needs the first; saving its evidence the second (a write_ grant includes reading the evidence). */
export const DISPUTE_PROOF_SCOPES = ["read_shopify_payments_disputes", "write_shopify_payments_dispute_evidences"] as const;

/** The permissions the shop has not granted of those the proof needs; a write_ grant counts as its read_. */
export function missingProofScopes(granted: string[]): string[] {
  const has = new Set(granted);
  return DISPUTE_PROOF_SCOPES.filter((scope) => !has.has(scope) && !has.has(scope.replace(/^read_/, "write_")));
}

/** The lines a merchant pastes into a dispute's evidence, and the ones the app saves there: the same text. */
export function proofText(proof: RefundProof, times: Record<string, string>): string {
  return [
    `Refunded: ${proof.amount ?? "see the order"} on ${times[proof.refundedAt] ?? proof.refundedAt}`,
    proof.references.length ? `Card reference (ARN): ${proof.references.join(", ")}` : null,
    proof.payout ? `Shopify Payments payout: ${proof.payout}` : null,
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * The evidence's uncategorized text with the proof added after what the merchant already wrote
 * there (disputeEvidenceUpdate replaces the field whole). Already there, the text is unchanged,
 * so sending again after a lost answer adds nothing twice.
 */
export function withProof(existing: string | null, proof: string): string {
  const kept = (existing ?? "").trimEnd();
  if (kept.includes(proof)) return kept;
  return kept ? `${kept}\n\n${proof}` : proof;
}

/** What DisputeEvidenceUpdateUserErrorCode means for a merchant; Shopify's own message follows in quotes. */
const REFUSALS: Record<string, string> = {
  DISPUTE_EVIDENCE_NOT_FOUND: "Shopify could not find this dispute's evidence.",
  EVIDENCE_ALREADY_ACCEPTED: "Shopify refused: the evidence was already submitted or the dispute is decided, so nothing more can be added.",
  EVIDENCE_PAST_DUE_DATE: "Shopify refused: the date to answer this dispute has passed.",
  INVALID: "Shopify refused the text as invalid.",
  TOO_LARGE: "Shopify refused: the evidence's text is too long.",
};

/** Shopify's userErrors of disputeEvidenceUpdate in words, its own message kept. */
export function refusalWords(errors: { code?: string | null; message: string }[]): string {
  return errors.map((e) => `${(e.code && REFUSALS[e.code]) || "Shopify refused the evidence."} (Shopify: "${e.message}")`).join(" ");
}

/** The proof's state on the evidence page, for an exposure with an open dispute (or one already sent). */
export type DisputeProofView =
  /** The button shows: the dispute it goes to and the exposure's revision the page showed. */
  | { kind: "sendable"; disputeId: string; revision: number }
  /** The shop has not granted what sending needs: copy it instead. */
  | { kind: "not_granted"; missing: string[] }
  /** One request holds the sending (its lock) and has no answer yet. */
  | { kind: "sending"; since: string }
  | { kind: "added"; at: string }
  /** Shopify's userErrors, in words: kept, not tried again. */
  | { kind: "refused"; answer: string; at: string };

/**
 * The proof's facts from what the evidence page knows: the refund's amount, the day the gateway
 * processed it (else the day it was made), its card references (ARN) and the payout it left in.
 * One function for the page and the sending, so what is saved is what the merchant saw.
 */
export function refundProofFacts(
  amount: string | null,
  startedAt: string,
  followed: { processedAt: string | null; references: string[]; payoutNumber: string } | null,
): RefundProof {
  return {
    amount,
    refundedAt: followed?.processedAt ?? startedAt,
    references: followed?.references ?? [],
    payout: followed?.payoutNumber || null,
  };
}

/** The instant the page shows for the proof's state (when it was added, refused or taken to be sent), formatted with the page's other times. */
export function disputeProofAt(view: DisputeProofView | null): string | null {
  if (!view) return null;
  return view.kind === "added" || view.kind === "refused" ? view.at : view.kind === "sending" ? view.since : null;
}
