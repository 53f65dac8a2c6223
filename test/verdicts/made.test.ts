import { describe, expect, it } from "vitest";
import { agreementOf, madeInOf, madeOf } from "../../app/verdicts/made";
import { madeCell, madeInWords, madeTechnical } from "../../app/verdicts/words";

// Decision 031: where a refund was made and by whom, from what Shopify says of it, never guessed.
const OWN = "test-refund-verifier-key";
const returnsPro = { apiKey: "returns-pro-1", title: "Returns Pro" };

describe("where a refund was made, from Shopify's facts", () => {
  it("a refund issued from this app's form was made here, by whoever asked for it", () => {
    expect(madeOf({ ownApiKey: OWN, askedInThisApp: { askedBy: "88" }, agreement: { app: { apiKey: OWN, title: "Refund Verifier" } } })).toEqual({
      in: "this_app",
      staffUserId: "88",
      app: null,
    });
  });

  it("an agreement whose app has this app's API key was made here, even without a record of its form", () => {
    expect(madeOf({ ownApiKey: OWN, agreement: { app: { apiKey: OWN, title: "Refund Verifier" } } })).toEqual({ in: "this_app", staffUserId: null, app: null });
  });

  it("a POS device on a transaction is Point of Sale, with the staff member the payload names, whatever app the agreement names", () => {
    const pointOfSale = { apiKey: "pos-1", title: "Point of Sale" };
    expect(madeOf({ ownApiKey: OWN, delivery: { staffUserId: "42", posDevice: true }, agreement: { app: pointOfSale } })).toEqual({
      in: "pos",
      staffUserId: "42",
      app: null,
    });
    expect(madeOf({ ownApiKey: OWN, posDevice: true, agreement: { app: pointOfSale } })).toEqual({ in: "pos", staffUserId: null, app: null });
  });

  it("another app named by the agreement made it, by its name in Shopify", () => {
    expect(madeOf({ ownApiKey: OWN, delivery: { staffUserId: null, posDevice: false }, agreement: { app: returnsPro } })).toEqual({
      in: "app",
      staffUserId: null,
      app: "Returns Pro",
    });
  });

  it("no app, and a staff member named by the payload: Shopify admin; no app and nobody named: not known", () => {
    expect(madeOf({ ownApiKey: OWN, delivery: { staffUserId: "42", posDevice: false }, agreement: { app: null } })).toEqual({
      in: "admin",
      staffUserId: "42",
      app: null,
    });
    expect(madeOf({ ownApiKey: OWN, delivery: { staffUserId: null, posDevice: false }, agreement: { app: null } })).toEqual({
      in: "unknown",
      staffUserId: null,
      app: null,
    });
    // The history: no payload, so nobody named.
    expect(madeOf({ ownApiKey: OWN, agreement: { app: null } })).toEqual({ in: "unknown", staffUserId: null, app: null });
  });

  it("without its agreement, a person the payload names is not placed in the admin (an app may act for them): where is not known", () => {
    expect(madeOf({ ownApiKey: OWN, delivery: { staffUserId: "42", posDevice: false } })).toEqual({ in: "unknown", staffUserId: "42", app: null });
  });

  it("says nothing before anything was read", () => {
    expect(madeOf({ ownApiKey: OWN })).toBeNull();
  });

  it("an app without an API key of its own configured is never taken for this one", () => {
    expect(madeOf({ ownApiKey: "", agreement: { app: { apiKey: "", title: "Some app" } } })).toEqual({ in: "app", staffUserId: null, app: "Some app" });
  });
});

describe("the refund's agreement among the order's, read at the door", () => {
  const refund = "gid://shopify/Refund/9007199254741993";
  it("is the one naming the refund; an order's other agreements are empty objects", () => {
    const agreements = { nodes: [{}, { refund: { id: "gid://shopify/Refund/1" }, app: null }, { refund: { id: refund }, app: returnsPro }] };
    expect(agreementOf(agreements, refund)).toEqual({ app: returnsPro });
    expect(agreementOf({ nodes: [{ refund: { id: refund }, app: null }] }, refund)).toEqual({ app: null });
  });

  it("is not known when it is not among those read, or the answer is not what was asked", () => {
    expect(agreementOf({ nodes: [{ refund: { id: "gid://shopify/Refund/1" }, app: null }] }, refund)).toBeUndefined();
    expect(agreementOf(undefined, refund)).toBeUndefined();
    expect(agreementOf({ nodes: [{ refund: { id: refund }, app: { title: "No key" } }] }, refund)).toBeUndefined();
  });

  it("a stored value the app does not know is not known; none stored is not read yet", () => {
    expect(madeInOf("admin")).toBe("admin");
    expect(madeInOf("marketplace")).toBe("unknown");
    expect(madeInOf(null)).toBeNull();
  });
});

describe("the words", () => {
  const words = (made: Parameters<typeof madeInWords>[0]["made"], staff: boolean, staffName: string | null, app: string | null = null) =>
    madeInWords({ made, staff, staffName, app });

  it("name the place and the person as Shopify named them, a staff member without a name, and say what is not known", () => {
    expect(words("admin", true, "Dana Whitfield")).toBe("Made in Shopify admin by Dana Whitfield");
    expect(words("admin", true, null)).toBe("Made in Shopify admin by a staff member");
    expect(words("pos", false, null)).toBe("Made on Point of Sale");
    expect(words("pos", true, "Dana Whitfield")).toBe("Made on Point of Sale by Dana Whitfield");
    expect(words("app", false, null, "Returns Pro")).toBe("Made by the app Returns Pro");
    expect(words("app", false, null)).toBe("Made by another app");
    expect(words("this_app", true, "Ada Lovelace")).toBe("Made in this app by Ada Lovelace");
    expect(words("this_app", true, null)).toBe("Made in this app by a staff member");
    expect(words("this_app", false, null)).toBe("Made in this app");
    expect(words("unknown", false, null)).toBe("Made in Shopify; who made it is not known");
    expect(words("unknown", true, "Dana Whitfield")).toBe("Made in Shopify by Dana Whitfield");
    expect(words("unknown", true, null)).toBe("Made in Shopify by a staff member");
    expect(words(null, false, null)).toBe("Made in Shopify; who made it is not known");
  });

  it("a list's Made column drops the heading's word; Technical details keep the stored values", () => {
    expect(madeCell("Made in Shopify admin by Dana Whitfield")).toBe("In Shopify admin by Dana Whitfield");
    expect(madeCell("Made by the app Returns Pro")).toBe("By the app Returns Pro");
    expect(madeTechnical({ madeIn: "admin", madeByStaff: "42", madeByApp: null })).toBe("madeIn admin, user 42");
    expect(madeTechnical({ madeIn: "app", madeByStaff: null, madeByApp: "Returns Pro" })).toBe("madeIn app, app Returns Pro");
    expect(madeTechnical({ madeIn: null, madeByStaff: null, madeByApp: null })).toBe("not read");
  });
});
