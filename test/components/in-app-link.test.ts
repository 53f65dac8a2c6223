import { describe, expect, it } from "vitest";
import { inAppPath } from "../../app/components/in-app-link";

// A link inside a server-rendered part of a page (app/components/ServerRendered.tsx): who follows a click on it.

const ORIGIN = "https://refund-verifier.example";
const plain = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false };
/** A link as the browser resolves its href against the page's address. */
const link = (href: string, target = "") => {
  const url = new URL(href, `${ORIGIN}/app`);
  return { target, origin: url.origin, pathname: url.pathname, search: url.search, hash: url.hash };
};

describe("a click on a link in a server-rendered part", () => {
  it("stays in the app for a plain click on one of its paths, with its query and fragment", () => {
    expect(inAppPath(link("/app/refunds/op_1?from=queue#evidence"), plain, ORIGIN)).toBe("/app/refunds/op_1?from=queue#evidence");
  });

  it("is left to the browser for another host, written whole or from '//'", () => {
    expect(inAppPath(link("https://admin.shopify.com/store/x/orders/1"), plain, ORIGIN)).toBeNull();
    expect(inAppPath(link("//elsewhere.example/app"), plain, ORIGIN)).toBeNull();
  });

  it("is left to the browser for a path of this origin that starts '//', which the router would take for another host", () => {
    expect(inAppPath(link(`${ORIGIN}//elsewhere.example/app`), plain, ORIGIN)).toBeNull();
  });

  it("is left to the browser for a new tab or window: a target, a modifier key, a middle click", () => {
    expect(inAppPath(link("/app/review", "_blank"), plain, ORIGIN)).toBeNull();
    for (const key of ["metaKey", "ctrlKey", "shiftKey", "altKey"] as const)
      expect(inAppPath(link("/app/review"), { ...plain, [key]: true }, ORIGIN)).toBeNull();
    expect(inAppPath(link("/app/review"), { ...plain, button: 1 }, ORIGIN)).toBeNull();
  });
});
