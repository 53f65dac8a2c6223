import { parseMinor, restDecimal } from "../fake-shopify/money";
import type { FakeShopify } from "../fake-shopify/server";
import type { CreateRefundOptions, FakeOrder, FakeRefund } from "../fake-shopify/shop";
import { newDelivery, refundWebhookBody, sendDelivery, TOPIC_PATHS, type Delivery } from "../fake-shopify/webhooks";

type Scenario =
  | "normal"
  | "redelivered"
  | "wrong_amount"
  | "wrong_order"
  | "gateway_failure"
  | "lost_webhook"
  | "second_refund"
  | "never_visible"
  | "late_visible"
  /** An EUR order in the USD shop: the refund and its webhook are in EUR, shopMoney in USD. */
  | "multi_currency"
  /** An order paid by card and gift card, refunded on both gateways in one refund. */
  | "split_refund"
  /** One refund sent three times within seconds (a double click, then a retry): two duplicates, one review item. */
  | "refunded_three_times";

/** How often each scenario happens in the live stream (the rest is normal). */
const LIVE_MIX: [Scenario, number][] = [
  ["redelivered", 0.08],
  ["wrong_amount", 0.05],
  ["wrong_order", 0.03],
  ["gateway_failure", 0.06],
  ["lost_webhook", 0.04],
  ["second_refund", 0.04],
  ["late_visible", 0.05],
  ["multi_currency", 0.04],
  ["split_refund", 0.04],
  ["refunded_three_times", 0.02],
];

/**
 * Where the demo's refunds are made and by whom (decision 031), in turn, one maker a scenario: in the
 * admin by its owner (Dana Whitfield, user 42, who opens the app: her name is known), by another
 * staff member who never opened the app (user 303: "a staff member"), on Point of Sale, by a returns
 * app, and by nobody Shopify names. Taken in turn, not drawn: the seeded random numbers stay as they were.
 */
const MAKERS: Pick<CreateRefundOptions, "staffUserId" | "pos" | "app">[] = [
  { staffUserId: "42" },
  { app: "Returns Pro" },
  { staffUserId: "303" },
  { staffUserId: "42", pos: true },
  {},
  { staffUserId: "42" },
];

const PRICES = ["19.99", "24.50", "39.00", "45.95", "59.00", "64.99", "89.00", "120.00", "149.50", "249.00"];

export interface DemoTraffic {
  describe(): string;
  stop(): void;
}

/**
 * Refunds happening in the simulated shop, each announced to the app by a signed refunds/create
 * delivery (except the lost ones, which the app's reconciliation sweep finds). `random` is seeded
 * so a demo run (and the browser tests) see the same history.
 */
export async function startDemoTraffic(options: {
  shopify: FakeShopify;
  shop: string;
  appUrl: string;
  secret: string;
  historyDays?: number;
  historyCount?: number;
  liveEveryMs?: number;
  seed?: number;
}): Promise<DemoTraffic> {
  const shop = options.shopify.shop(options.shop);
  let seed = options.seed ?? 20261129;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const counts: Record<string, number> = {};
  let delivered = 0;
  let made = 0;

  async function send(delivery: Delivery) {
    const response = await sendDelivery(options.appUrl, TOPIC_PATHS["refunds/create"], delivery, options.secret);
    if (response.ok) delivered++;
  }

  function refundAmount(order: FakeOrder): string {
    const whole = Number(order.totalMinor) / 100;
    return Math.max(1, Math.round(whole * (0.2 + random() * 0.8) * 100) / 100).toFixed(2);
  }

  /** Nearly a third on a gift card, the rest by card. */
  function splitPayments(price: string) {
    const total = parseMinor(price, shop.currency);
    const giftCard = (total * 3n) / 10n;
    return [
      { gateway: "shopify_payments", amount: restDecimal(total - giftCard, shop.currency) },
      { gateway: "gift_card", amount: restDecimal(giftCard, shop.currency) },
    ];
  }

  /** The refund split over the order's gateways in proportion to what each captured. */
  function splitRefund(order: FakeOrder, amount: string) {
    const minor = parseMinor(amount, order.presentmentCurrency);
    const [card, giftCard] = shop.captures(order);
    const onGiftCard = (minor * giftCard.amountMinor) / order.totalMinor;
    return [
      { amount: restDecimal(minor - onGiftCard, order.presentmentCurrency), gateway: card.gateway },
      { amount: restDecimal(onGiftCard, order.presentmentCurrency), gateway: giftCard.gateway },
    ];
  }

  async function happen(scenario: Scenario, at: Date) {
    counts[scenario] = (counts[scenario] ?? 0) + 1;
    // Every scenario draws the same random numbers in the same order, so adding one leaves the others' history as it was.
    const price = pick(PRICES);
    const createdAt = new Date(at.getTime() - 3600_000 * (1 + random() * 48));
    const order =
      scenario === "multi_currency"
        ? shop.createOrder({ amount: price, createdAt, presentmentCurrency: "EUR", exchangeRate: "1.0850" })
        : scenario === "split_refund"
          ? shop.createOrder({ amount: price, createdAt, payments: splitPayments(price) })
          : shop.createOrder({ amount: price, createdAt });
    const amount = refundAmount(order);
    const maker = MAKERS[made++ % MAKERS.length];
    const create = (extra: Partial<Parameters<typeof shop.createRefund>[1]> = {}): FakeRefund =>
      shop.createRefund(order.id, { amount, createdAt: at, note: "Customer return", ...maker, ...extra });
    // The refund happened `at`; its delivery happens now (the app refuses deliveries triggered over 48 hours ago).
    const deliver = (refund: FakeRefund, body = refundWebhookBody(shop, refund)) => newDelivery("refunds/create", options.shop, body, new Date());
    switch (scenario) {
      case "normal":
        return send(deliver(create()));
      case "redelivered": {
        const delivery = deliver(create());
        for (let i = 0; i < 3; i++) await send(delivery);
        return;
      }
      case "wrong_amount":
        return send(deliver(create({ recordedAmount: (Number(amount) + 5).toFixed(2) })));
      case "wrong_order": {
        const refund = create();
        const other = shop.createOrder({ amount: pick(PRICES), createdAt: at });
        return send(deliver(refund, refundWebhookBody(shop, refund).replace(`"order_id":${refund.orderId}`, `"order_id":${other.id}`)));
      }
      case "gateway_failure":
        return send(deliver(create({ status: "FAILURE" })));
      case "lost_webhook":
        create();
        return;
      case "second_refund": {
        const first = create({ amount: (Number(amount) / 2).toFixed(2) });
        const second = create({ amount: (Number(amount) / 2).toFixed(2) });
        await send(deliver(first));
        return send(deliver(second));
      }
      case "never_visible":
        return send(deliver(create({ visibleAfterMs: 365 * 86_400_000 })));
      case "late_visible":
        return send(deliver(create({ visibleAfterMs: 25_000 })));
      case "multi_currency":
        return send(deliver(create()));
      case "split_refund":
        return send(deliver(create({ transactions: splitRefund(order, amount) })));
      case "refunded_three_times": {
        const refunds = [0, 1, 2].map((i) => create({ createdAt: new Date(at.getTime() - (2 - i) * 4_000) }));
        for (const refund of refunds) await send(deliver(refund));
        return;
      }
    }
  }

  function liveScenario(): Scenario {
    let roll = random();
    for (const [scenario, share] of LIVE_MIX) {
      if (roll < share) return scenario;
      roll -= share;
    }
    return "normal";
  }

  const now = Date.now();
  // Within the contract's 7-day timeout: what the app would have verified live since it was installed.
  const days = options.historyDays ?? 6;
  const count = options.historyCount ?? 120;
  const history: [Scenario, Date][] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(now - days * 86_400_000 * ((count - i) / count) + random() * 3600_000);
    history.push([
      i % 11 === 3
        ? "gateway_failure"
        : i % 13 === 5
          ? "wrong_amount"
          : i % 17 === 9
            ? "second_refund"
            : i % 23 === 1
              ? "redelivered"
              : i % 31 === 2
                ? "wrong_order"
                : i === 7
                  ? "multi_currency"
                  : i === 12
                    ? "split_refund"
                    : i === 15
                      ? "refunded_three_times"
                      : "normal",
      at,
    ]);
  }
  // Two refunds Shopify never showed, a little past the 7-day timeout: UNVERIFIABLE, for a person.
  history.unshift(["never_visible", new Date(now - 7.2 * 86_400_000)], ["never_visible", new Date(now - 7.1 * 86_400_000)]);
  for (const [scenario, at] of history) await happen(scenario, new Date(Math.min(at.getTime(), now - 60_000)));

  let timer: NodeJS.Timeout | undefined;
  const every = options.liveEveryMs ?? 6_000;
  if (every > 0) {
    const tick = async () => {
      await happen(liveScenario(), new Date()).catch((error: Error) => console.error(`demo traffic: ${error.message}`));
      timer = setTimeout(tick, every * (0.5 + random()));
    };
    timer = setTimeout(tick, every);
  }

  return {
    describe: () =>
      `${delivered} signed refunds/create deliveries so far; scenarios: ${Object.entries(counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    stop: () => clearTimeout(timer),
  };
}
