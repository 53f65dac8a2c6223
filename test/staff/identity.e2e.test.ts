import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { createPrismaClient } from "../../app/lib/db/client";
import { SealedSessionStorage } from "../../app/shopify/sealed-session-storage.server";
import { knownStaffNames, staffDirectory, staffNames, staffOf } from "../../app/staff/identity.server";
import { createTestDatabase } from "../support/database";
import { TEST_APP } from "../support/credentials";

const SHOP = "staff-directory.myshopify.com";
const OTHER = "another-shop.myshopify.com";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPrismaClient(database.url);
});
beforeEach(async () => {
  await db.session.deleteMany();
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const HOUR = 3600_000;
const at = (hoursFromNow: number) => new Date(Date.now() + hoursFromNow * HOUR);

/** An online session row as Shopify's Prisma session storage writes one after a token exchange (its id `${shop}_${userId}`). */
const online = (
  shop: string,
  userId: bigint,
  user: { firstName?: string; lastName?: string; email?: string; accountOwner?: boolean; expires?: Date | null; id?: string },
) =>
  db.session.create({
    data: {
      id: user.id ?? `${shop}_${userId}`,
      shop,
      state: "",
      isOnline: true,
      accessToken: "shpua_row",
      userId,
      firstName: user.firstName ?? null,
      lastName: user.lastName ?? null,
      email: user.email ?? null,
      accountOwner: user.accountOwner ?? false,
      expires: user.expires === undefined ? at(24) : user.expires,
    },
  });
const offline = (shop: string) => db.session.create({ data: { id: `offline_${shop}`, shop, state: "", isOnline: false, accessToken: "shpat_row" } });

describe("staffDirectory: the shop's people the app knows, from their online sessions", () => {
  it("lists each user once, the owner first, then by name; never another shop's people, never the offline session", async () => {
    await offline(SHOP);
    await online(SHOP, 303n, { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
    await online(SHOP, 42n, { firstName: "Dana", lastName: "Whitfield", email: "dana@example.com", accountOwner: true });
    await online(SHOP, 101n, { firstName: "Farid", lastName: "Haddad" });
    await online(SHOP, 7n, {});
    await online(OTHER, 555n, { firstName: "Zoe", lastName: "Other", accountOwner: true });
    expect(await staffDirectory(db, SHOP)).toEqual([
      { userId: "42", name: "Dana Whitfield", accountOwner: true, email: "dana@example.com" },
      { userId: "303", name: "Ada Lovelace", accountOwner: false, email: "ada@example.com" },
      { userId: "101", name: "Farid Haddad", accountOwner: false, email: null },
      { userId: "7", name: "Staff member 7", accountOwner: false, email: null },
    ]);
    expect(await staffDirectory(db, "nobody.myshopify.com")).toEqual([]);
  });

  it("takes a user's newest session (the one that expires last) where the app holds several", async () => {
    await online(SHOP, 303n, { id: "online_303", firstName: "Ada", lastName: "Byron", expires: null });
    await online(SHOP, 303n, { firstName: "Ada", lastName: "Lovelace", expires: at(20) });
    await online(SHOP, 303n, { id: "older_303", firstName: "Ada", lastName: "King", expires: at(2) });
    expect(await staffDirectory(db, SHOP)).toEqual([{ userId: "303", name: "Ada Lovelace", accountOwner: false, email: null }]);
  });

  it("believes only the newest word on who owns the shop: a shop has one owner, so ownership moved to whoever Shopify last said owns it", async () => {
    await online(SHOP, 42n, { firstName: "Dana", lastName: "Whitfield", accountOwner: true, expires: at(3) });
    await online(SHOP, 303n, { firstName: "Ada", lastName: "Lovelace", accountOwner: true, expires: at(20) });
    expect((await staffDirectory(db, SHOP)).map((m) => [m.name, m.accountOwner])).toEqual([
      ["Ada Lovelace", true],
      ["Dana Whitfield", false],
    ]);
  });
});

describe("staffNames: people's names for the actors of review events", () => {
  it("names an actor where Shopify gave a name in this shop, 'Staff member N' otherwise", async () => {
    await online(SHOP, 303n, { firstName: "Ada", lastName: "Lovelace" });
    await online(SHOP, 7n, {});
    await online(OTHER, 101n, { firstName: "Farid", lastName: "Haddad" });
    const names = await staffNames(db, SHOP, ["303", "gid://shopify/User/303", "7", "101", "unknown"]);
    expect(Object.fromEntries(names)).toEqual({
      "303": "Ada Lovelace",
      "gid://shopify/User/303": "Ada Lovelace",
      "7": "Staff member 7",
      "101": "Staff member 101",
      unknown: "Staff member unknown",
    });
  });

  it("takes the user's newest session's name, whatever order the rows were written in", async () => {
    await online(SHOP, 303n, { firstName: "Ada", lastName: "Lovelace", expires: at(20) });
    await online(SHOP, 303n, { id: "online_303", firstName: "Ada", lastName: "Byron", expires: null });
    await online(SHOP, 303n, { id: "older_303", firstName: "Ada", lastName: "King", expires: at(2) });
    expect((await staffNames(db, SHOP, ["303"])).get("303")).toBe("Ada Lovelace");
  });
});

describe("knownStaffNames: the names of the people a refunds/create payload names", () => {
  it("a user_id too long for Shopify's 64-bit ids (a payload that lies) names nobody, and the others are still named", async () => {
    await online(SHOP, 303n, { firstName: "Ada", lastName: "Lovelace" });
    const names = await knownStaffNames(db, SHOP, ["99999999999999999999", "303"]);
    expect(Object.fromEntries(names)).toEqual({ "303": "Ada Lovelace" });
  });
});

describe("staffOf with a session the app's storage read back", () => {
  it("reads no name where Shopify gave none: the storage's 'null' text is not a name", async () => {
    const storage = new SealedSessionStorage(new PrismaSessionStorage(db), { current: Buffer.from(TEST_APP.sessionSecretKey, "hex") });
    await online(SHOP, 42n, { accountOwner: true });
    await online(SHOP, 303n, { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
    const owner = await storage.loadSession(`${SHOP}_42`);
    expect(staffOf({ session: owner!, sessionToken: { sub: "42" } })).toEqual({ userId: "42", name: "Staff member 42", accountOwner: true, email: null });
    const ada = await storage.loadSession(`${SHOP}_303`);
    expect(staffOf({ session: ada!, sessionToken: { sub: "303" } })).toEqual({
      userId: "303",
      name: "Ada Lovelace",
      accountOwner: false,
      email: "ada@example.com",
    });
  });
});
