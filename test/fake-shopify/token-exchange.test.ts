import { describe, expect, it } from "vitest";
import { FakeShopify } from "../../fake-shopify/server";
import { mintSessionToken } from "../../fake-shopify/session-token";
import { TEST_APP } from "../support/credentials";
import { graphql, SHOP } from "./support";

const ONLINE = "urn:shopify:params:oauth:token-type:online-access-token";
const OFFLINE = "urn:shopify:params:oauth:token-type:offline-access-token";

function fakeWithShop() {
  const shopify = new FakeShopify(TEST_APP);
  shopify.addShop(SHOP);
  return shopify;
}

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A token exchange as Shopify's library sends it (@shopify/shopify-api's tokenExchange). */
async function exchange(
  shopify: FakeShopify,
  options: { requested: string; userId?: string; secret?: string; tokenShop?: string; expiring?: boolean },
): Promise<{ status: number; body: Answer }> {
  const sessionToken = mintSessionToken({
    shop: options.tokenShop ?? SHOP,
    apiKey: TEST_APP.apiKey,
    secret: options.secret ?? TEST_APP.secret,
    userId: options.userId,
  });
  const response = await shopify.handle(
    new Request(`https://${SHOP}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        client_id: TEST_APP.apiKey,
        client_secret: TEST_APP.secret,
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        subject_token: sessionToken,
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
        requested_token_type: options.requested,
        expiring: options.expiring === false ? "0" : "1",
      }),
    }),
  );
  return { status: response.status, body: (await response.json()) as Answer };
}

const SHOP_NAME = `{ shop { name } }`;

describe("the fake's token exchange", () => {
  it("answers an offline-token request as before: the shop's token, no user", async () => {
    const shopify = fakeWithShop();
    const { status, body } = await exchange(shopify, { requested: OFFLINE });
    expect(status).toBe(200);
    expect(body).toEqual({
      access_token: expect.stringMatching(/^shpat_/),
      scope: TEST_APP.scopes,
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 7_776_000,
    });
    expect((await graphql(shopify, SHOP_NAME, {}, { token: body.access_token })).status).toBe(200);
  });

  it("answers an online-token request with the session token's user in Shopify's field names: a new shop's staff member 42 is its owner", async () => {
    const shopify = fakeWithShop();
    const { status, body } = await exchange(shopify, { requested: ONLINE });
    expect(status).toBe(200);
    // Online tokens neither expire in an hour nor refresh, whatever `expiring` says: they last Shopify's day (86399 s).
    expect(body).toEqual({
      access_token: expect.stringMatching(/^shpua_/),
      scope: TEST_APP.scopes,
      expires_in: 86399,
      associated_user_scope: TEST_APP.scopes,
      associated_user: {
        id: 42,
        first_name: "Dana",
        last_name: "Whitfield",
        email: "dana.whitfield@example.com",
        email_verified: true,
        account_owner: true,
        locale: "en",
        collaborator: false,
      },
    });
    expect((await graphql(shopify, SHOP_NAME, {}, { token: body.access_token })).status).toBe(200);
  });

  it("answers for a staff member the test added, and one made owner takes the ownership from the last", async () => {
    const shopify = fakeWithShop();
    shopify.addStaff(SHOP, { id: "303", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
    const ada = (await exchange(shopify, { requested: ONLINE, userId: "303" })).body.associated_user;
    expect(ada).toMatchObject({ id: 303, first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", account_owner: false });
    shopify.addStaff(SHOP, { id: "303", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", accountOwner: true });
    expect((await exchange(shopify, { requested: ONLINE, userId: "303" })).body.associated_user.account_owner).toBe(true);
    expect((await exchange(shopify, { requested: ONLINE, userId: "42" })).body.associated_user.account_owner).toBe(false);
  });

  it("registers a user it does not know yet as a staff member, not the owner, with the same realistic name every time", async () => {
    const first = (await exchange(fakeWithShop(), { requested: ONLINE, userId: "101" })).body.associated_user;
    expect(first).toMatchObject({ id: 101, account_owner: false, collaborator: false });
    expect(first.first_name).toMatch(/^[A-Z][a-z]+$/);
    expect(first.last_name).toMatch(/^[A-Z][a-z]+$/);
    expect(first.email).toBe(`${first.first_name}.${first.last_name}@example.com`.toLowerCase());
    // Deterministic across fakes (test runs), different between users.
    const again = fakeWithShop();
    expect((await exchange(again, { requested: ONLINE, userId: "101" })).body.associated_user).toEqual(first);
    const other = (await exchange(again, { requested: ONLINE, userId: "303" })).body.associated_user;
    expect(`${other.first_name} ${other.last_name}`).not.toBe(`${first.first_name} ${first.last_name}`);
    // Stateful: the shop has them from now on.
    expect(again.shop(SHOP).staff.member("101")).toMatchObject({ firstName: first.first_name, accountOwner: false });
  });

  it("refuses a session token not signed with the app's secret, or for another shop, online as offline", async () => {
    const shopify = fakeWithShop();
    shopify.addShop("elsewhere.myshopify.com");
    for (const requested of [ONLINE, OFFLINE]) {
      expect(await exchange(shopify, { requested, secret: "someone-elses-secret" })).toEqual({ status: 400, body: { error: "invalid_subject_token" } });
      expect(await exchange(shopify, { requested, tokenShop: "elsewhere.myshopify.com" })).toEqual({ status: 400, body: { error: "invalid_subject_token" } });
    }
    expect(
      shopify
        .shop(SHOP)
        .staff.all()
        .map((m) => m.id),
    ).toEqual(["42"]);
  });
});
