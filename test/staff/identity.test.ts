import { describe, expect, it } from "vitest";
import { Session } from "@shopify/shopify-api";
import { staffOf } from "../../app/staff/identity.server";

const SHOP = "staff.myshopify.com";

/** Shopify's `associated_user` for user 42, the shop's owner, as its token exchange answers it. */
const owner42 = {
  id: 42,
  first_name: "Dana",
  last_name: "Whitfield",
  email: "dana.whitfield@example.com",
  email_verified: true,
  account_owner: true,
  locale: "en",
  collaborator: false,
};

/** A session as Shopify's library makes it from a token exchange's answer (createSession). */
const onlineSession = (associatedUser: Record<string, unknown> = owner42) =>
  new Session({
    id: `${SHOP}_${String(associatedUser.id)}`,
    shop: SHOP,
    state: "",
    isOnline: true,
    accessToken: "shpua_x",
    onlineAccessInfo: { expires_in: 86399, associated_user_scope: "read_orders", associated_user: associatedUser } as never,
  });
const offlineSession = new Session({ id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: "shpat_x" });
const token = (sub: unknown) => ({ sub });

describe("staffOf: who makes a request, as Shopify says it", () => {
  it("is the session token's user, with the name, email and ownership of their online session", () => {
    expect(staffOf({ session: onlineSession(), sessionToken: token("42") })).toEqual({
      userId: "42",
      name: "Dana Whitfield",
      accountOwner: true,
      email: "dana.whitfield@example.com",
    });
  });

  it("reads the user id from a sub written as Shopify's gid too", () => {
    expect(staffOf({ session: onlineSession(), sessionToken: token("gid://shopify/User/42") })).toMatchObject({ userId: "42", accountOwner: true });
  });

  it("is a staff member who is not the owner for a staff member Shopify says is not", () => {
    const session = onlineSession({ ...owner42, id: 303, first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", account_owner: false });
    expect(staffOf({ session, sessionToken: token("303") })).toEqual({ userId: "303", name: "Ada Lovelace", accountOwner: false, email: "ada@example.com" });
  });

  it("never says owner without an online session: the offline session knows no user", () => {
    expect(staffOf({ session: offlineSession, sessionToken: token("42") })).toEqual({
      userId: "42",
      name: "Staff member 42",
      accountOwner: false,
      email: null,
    });
  });

  it("never says owner on the word of another user's online session", () => {
    expect(staffOf({ session: onlineSession(), sessionToken: token("303") })).toEqual({
      userId: "303",
      name: "Staff member 303",
      accountOwner: false,
      email: null,
    });
  });

  it("never says owner where Shopify's answer does not say it in its own terms", () => {
    for (const said of [{ account_owner: "true" }, { account_owner: undefined }, { account_owner: 1 }, { id: "forty-two" }, { id: 42.5 }]) {
      expect(staffOf({ session: onlineSession({ ...owner42, ...said }), sessionToken: token("42") })).toMatchObject({ userId: "42", accountOwner: false });
    }
    const session = onlineSession();
    session.onlineAccessInfo = undefined;
    expect(staffOf({ session, sessionToken: token("42") })).toMatchObject({ accountOwner: false, name: "Staff member 42" });
  });

  it("keeps Shopify's word on ownership where it gave no name: the name is then 'Staff member N'", () => {
    const session = onlineSession({ ...owner42, first_name: "", last_name: null, email: null });
    expect(staffOf({ session, sessionToken: token("42") })).toEqual({ userId: "42", name: "Staff member 42", accountOwner: true, email: null });
  });

  it("is nobody for a session token that names no Shopify user", () => {
    for (const sub of [undefined, "", "042", "0", "gid://shopify/Customer/42", "42 ", "user-42", 42]) {
      expect(staffOf({ session: onlineSession(), sessionToken: token(sub) })).toBeNull();
    }
    expect(staffOf({ session: onlineSession() })).toBeNull();
  });
});
