import type { PrismaClient, RefundApproval } from "@prisma/client";
import { staffDirectory, type StaffMember } from "../staff/identity.server";
import type { ShopLimits } from "./limits";
import { mayApprove, readLimits, type Actor } from "./limits.server";

/**
 * Why this person may not decide the request, with the shop's limits as they are now; null when
 * they may. Never the person who asked, even an approver or the owner; only the account owner or an
 * approver the shop named (read now: one removed since cannot). One wording, for the request page
 * and for its approve or decline.
 */
export function mayNotDecide(
  request: Pick<RefundApproval, "askedBy">,
  person: Actor,
  limits: ShopLimits,
): { code: "OWN_REQUEST" | "NOT_APPROVER"; words: string } | null {
  if (request.askedBy === person.userId) return { code: "OWN_REQUEST", words: "You asked for this refund: someone else must approve or decline it." };
  if (!mayApprove(limits, person)) return { code: "NOT_APPROVER", words: "Only the account owner or an approver the shop named can decide refund requests." };
  return null;
}

/** Who can decide the shop's requests: the account owners and the approvers it named, among the staff who opened the app, less `except`. */
export async function approversOf(db: PrismaClient, shop: string, except: string | null): Promise<StaffMember[]> {
  const limits = await readLimits(db, shop);
  return (await staffDirectory(db, shop)).filter((member) => member.userId !== except && mayApprove(limits, member));
}

/** "Sam Lee (account owner) or Ada Lovelace", or words saying nobody can yet. */
export function approversInWords(approvers: { name: string; accountOwner: boolean }[]): string {
  const names = approvers.map((a) => (a.accountOwner ? `${a.name} (account owner)` : a.name));
  if (!names.length) return "Nobody who can approve it has opened the app yet: the account owner can, once they open it.";
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
  return `${list} can approve it; it waits for them in the review queue.`;
}
