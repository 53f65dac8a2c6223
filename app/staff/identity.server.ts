import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";
import { readInSlices } from "../lib/db/slices";
import { shopifyNumberSchema } from "../shopify/ids";

/**
 * A person of the shop's admin, as Shopify says who they are: the app keeps no role or password of
 * its own (docs/decisions/029-identity-from-shopify-sessions.md).
 */
export interface StaffMember {
  /** Shopify's user id, in digits: what the session token's `sub` says. */
  userId: string;
  /** Their first and last name as Shopify gave them; "Staff member 42" where it gave none. */
  name: string;
  /** Whether Shopify said this user owns the shop (`associated_user.account_owner` of their online token). */
  accountOwner: boolean;
  email: string | null;
}

/** What the app calls a person Shopify gave it no name for. */
export const unnamedStaff = (userId: string) => `Staff member ${userId}`;

const nameOf = (userId: string, first: string | null, last: string | null) => [first, last].filter(Boolean).join(" ").trim() || unnamedStaff(userId);

const USER_GID = "gid://shopify/User/";

/** A session token's `sub`: Shopify's user id, written "42" or "gid://shopify/User/42"; the digits. */
const subjectSchema = z
  .string()
  .transform((sub) => (sub.startsWith(USER_GID) ? sub.slice(USER_GID.length) : sub))
  .pipe(shopifyNumberSchema);

/**
 * A name or email as the session holds it. A session read back from the database has what Shopify's
 * Prisma session storage (11.0.0, rowToSession) made of its row: a missing value is the text "null"
 * (String(null)), which is no name.
 */
const givenText = z
  .string()
  .nullish()
  .transform((value) => (value && value !== "null" ? value.trim() || null : null));

/** An online session's user, as Shopify's token exchange answered it (`onlineAccessInfo.associated_user`). */
const onlineUserSchema = z.object({
  associated_user: z.object({
    id: shopifyNumberSchema,
    first_name: givenText,
    last_name: givenText,
    email: givenText,
    account_owner: z.boolean(),
  }),
});

/** What `authenticateAdmin(request)` returns that says who is asking: its session, and the session token's claims. */
export interface AuthenticatedRequest {
  session: { isOnline: boolean; onlineAccessInfo?: unknown };
  sessionToken?: { sub?: unknown };
}

/**
 * The staff member making a request: the session token's user, with the name, email and ownership
 * Shopify gave for that same user in the request's online session. Owner only on Shopify's word for
 * this user: a session that is not online, or is another user's, or says it in other terms, makes
 * them a staff member named "Staff member 42" who is not the owner. Null when the token names no user.
 */
export function staffOf(auth: AuthenticatedRequest): StaffMember | null {
  const subject = subjectSchema.safeParse(auth.sessionToken?.sub);
  if (!subject.success) return null;
  const userId = subject.data;
  const online = auth.session.isOnline ? onlineUserSchema.safeParse(auth.session.onlineAccessInfo) : null;
  const user = online?.success && online.data.associated_user.id === userId ? online.data.associated_user : null;
  if (!user) return { userId, name: unnamedStaff(userId), accountOwner: false, email: null };
  return { userId, name: nameOf(userId, user.first_name, user.last_name), accountOwner: user.account_owner, email: user.email };
}

const STAFF_COLUMNS = { userId: true, firstName: true, lastName: true, email: true, accountOwner: true, expires: true } as const;
type StaffRow = Prisma.SessionGetPayload<{ select: typeof STAFF_COLUMNS }>;

/** An online session lasts a fixed time from its exchange: the one that expires last is Shopify's latest word (a row without expiry, the oldest). */
const exchangedAt = (row: StaffRow) => row.expires?.getTime() ?? -Infinity;

/** One row per user: their newest online session. */
function newestPerUser(rows: StaffRow[]): Map<string, StaffRow> {
  const newest = new Map<string, StaffRow>();
  for (const row of rows) {
    if (row.userId === null) continue;
    const kept = newest.get(String(row.userId));
    if (!kept || exchangedAt(row) > exchangedAt(kept)) newest.set(String(row.userId), row);
  }
  return newest;
}

const memberOf = (userId: string, row: StaffRow): StaffMember => ({
  userId,
  name: nameOf(userId, row.firstName, row.lastName),
  accountOwner: row.accountOwner,
  email: row.email,
});

/**
 * The shop's staff members the app knows: everyone who opened the app (an online session of this
 * shop), once each, as Shopify described them at their latest token exchange; the owner first, then
 * by name. A shop has one owner: where sessions of two people say owner (the ownership moved between
 * their exchanges), only the latest is believed.
 */
export async function staffDirectory(db: PrismaClient, shop: string): Promise<StaffMember[]> {
  const rows = await db.session.findMany({ where: { shop, isOnline: true, userId: { not: null } }, select: STAFF_COLUMNS });
  const newest = [...newestPerUser(rows)];
  const owners = newest.filter(([, row]) => row.accountOwner).sort(([, a], [, b]) => exchangedAt(b) - exchangedAt(a));
  const owner = owners[0]?.[0];
  return newest
    .map(([userId, row]) => ({ ...memberOf(userId, row), accountOwner: userId === owner }))
    .sort((a, b) => Number(b.accountOwner) - Number(a.accountOwner) || a.name.localeCompare(b.name, "en") || a.userId.localeCompare(b.userId));
}

/**
 * People's names for actors (session-token subjects, as review events keep them): the name
 * Shopify gave in the user's newest online session of this shop, else "Staff member 42".
 */
export async function staffNames(db: PrismaClient, shop: string, actors: string[]): Promise<Map<string, string>> {
  const userIdOf = (actor: string) => subjectSchema.safeParse(actor).data;
  const newest = await newestSessionsOf(
    db,
    shop,
    actors.map(userIdOf).filter((id) => id !== undefined),
  );
  return new Map(
    actors.map((actor) => {
      const userId = userIdOf(actor);
      const row = userId === undefined ? undefined : newest.get(userId);
      return [actor, row && userId ? memberOf(userId, row).name : unnamedStaff(userId ?? actor)];
    }),
  );
}

/**
 * The names Shopify gave for these users (digits), in their newest online session of this shop;
 * a user it gave no name for, or who never opened the app, is left out: the caller says "a staff
 * member" rather than a number (decision 031).
 */
export async function knownStaffNames(db: PrismaClient, shop: string, userIds: string[]): Promise<Map<string, string>> {
  const named = new Map<string, string>();
  for (const [userId, row] of await newestSessionsOf(
    db,
    shop,
    userIds.filter((id) => shopifyNumberSchema.safeParse(id).success),
  )) {
    const name = nameOf(userId, row.firstName, row.lastName);
    if (name !== unnamedStaff(userId)) named.set(userId, name);
  }
  return named;
}

/** The newest online session of this shop of each of these users (Shopify's digits), by user id. */
async function newestSessionsOf(db: PrismaClient, shop: string, userIds: string[]) {
  // Session.userId is a 64-bit integer: a longer number (a payload's user_id that lies) names nobody, and must not fail the page's query.
  const ids = [...new Set(userIds)].filter((id) => BigInt(id) <= INT64_MAX);
  if (!ids.length) return new Map<string, StaffRow>();
  const rows = await readInSlices(ids, (slice) =>
    db.session.findMany({ where: { shop, isOnline: true, userId: { in: slice.map((id) => BigInt(id)) } }, select: STAFF_COLUMNS }),
  );
  return newestPerUser(rows);
}

const INT64_MAX = 9_223_372_036_854_775_807n;
