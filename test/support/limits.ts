import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { dataPath, embeddedFetch } from "./embedded";
import type { VerificationHarness } from "./verification";

/**
 * The people of the refund limits' tests (issue 44), as the fake shop knows them: user 42 is its
 * account owner (Dana Whitfield); Sam Lee asks for refunds, Ada Lovelace approves them, Kit Marlowe
 * does neither.
 */
export const OWNER = "42";
export const ASKER = "77";
export const APPROVER = "88";
export const CLERK = "99";

export const LIMITS_PATH = dataPath("/app/settings/limits", "routes/app.settings.limits");
export const refundFormPath = (orderId: bigint) => dataPath(`/app/orders/${orderId}/refund`, "routes/app.orders.$orderId.refund");
export const requestPath = (id: string) => dataPath(`/app/approvals/${id}`, "routes/app.approvals.$id");

export type Person = { perRefund?: string; daily?: string; approver?: boolean; setsLimits?: boolean };
export type LimitFields = Partial<
  Record<"perRefund" | "dailyPerStaff" | "shopHourlyCount" | "shopHourlyAmount" | "shopDailyCount" | "shopDailyAmount", string>
>;

/**
 * A shop's limits as its people use them, through the app's own routes. `harness` is read when a
 * helper runs, so the helpers can be taken apart at a test file's top, before its harness starts.
 */
export function limitsOf(harness: () => VerificationHarness, domainOf: () => string = () => harness().domain) {
  const as = (userId: string) => embeddedFetch(harness().app.url, domainOf(), userId);
  const helpers = {
    as,
    /** Sam, Ada and Kit join the shop's staff, and each of the four opens the app once: the app knows people by the online sessions Shopify gives it. */
    async meetStaff() {
      const [h, domain] = [harness(), domainOf()];
      h.app.shopify.addStaff(domain, { id: ASKER, firstName: "Sam", lastName: "Lee" });
      h.app.shopify.addStaff(domain, { id: APPROVER, firstName: "Ada", lastName: "Lovelace" });
      h.app.shopify.addStaff(domain, { id: CLERK, firstName: "Kit", lastName: "Marlowe" });
      for (const id of [OWNER, ASKER, APPROVER, CLERK]) expect((await as(id)(LIMITS_PATH)).status).toBe(200);
    },
    /** Posts the limits form as `userId` would, from the page as they last read it (or at `revision`). */
    async saveLimits(userId: string, fields: LimitFields, people: Record<string, Person> = {}, revision?: number) {
      const page = await (await as(userId)(LIMITS_PATH)).json();
      const body = new URLSearchParams({ revision: String(revision ?? page.revision), people: Object.keys(people).join(","), ...fields });
      for (const [id, person] of Object.entries(people)) {
        if (person.perRefund) body.set(`perRefund.${id}`, person.perRefund);
        if (person.daily) body.set(`daily.${id}`, person.daily);
        if (person.approver) body.set(`approver.${id}`, "on");
        if (person.setsLimits) body.set(`setsLimits.${id}`, "on");
      }
      return as(userId)(LIMITS_PATH, { method: "POST", body });
    },
    /** The refund form posted by `userId` for `amount` on an order. */
    askRefund: (userId: string, orderId: bigint, amount: string, formToken = randomUUID()) =>
      as(userId)(refundFormPath(orderId), { method: "POST", body: new URLSearchParams({ intent: "issue", amount, formToken }) }),
    /** The order's newest refund record and its request for approval. */
    async requestOn(orderId: bigint) {
      const [h, domain] = [harness(), domainOf()];
      const record = await h.db.refundRecord.findFirstOrThrow({
        where: { shop: domain, orderId: `gid://shopify/Order/${orderId}` },
        orderBy: { createdAt: "desc" },
      });
      return { record, request: await h.db.refundApproval.findUniqueOrThrow({ where: { recordId: record.id } }) };
    },
    /** Sam Lee asks for `amount` on a new order of $300 and it waits for approval: the order, its record and its request. */
    async heldRequest(amount = "180.00") {
      const order = harness().app.shopify.shop(domainOf()).createOrder({ amount: "300.00" });
      expect((await helpers.askRefund(ASKER, order.id, amount)).status).toBe(202);
      return { order, ...(await helpers.requestOn(order.id)) };
    },
    requestPage: async (userId: string, id: string) => (await as(userId)(requestPath(id))).json(),
    decide: (userId: string, id: string, fields: Record<string, string>) => as(userId)(requestPath(id), { method: "POST", body: new URLSearchParams(fields) }),
    /** Approves from the request page as `userId` has it open (its limits revision). */
    async approve(userId: string, id: string, fields: Record<string, string> = {}) {
      const page = await helpers.requestPage(userId, id);
      return helpers.decide(userId, id, { intent: "approve", limitsRevision: String(page.limitsNow.revision), ...fields });
    },
  };
  return helpers;
}
