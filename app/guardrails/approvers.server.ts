import type { PrismaClient } from "@prisma/client";
import { staffDirectory, type StaffMember } from "../staff/identity.server";
import { mayApprove, readLimits } from "./limits.server";

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
