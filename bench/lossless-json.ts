import { FakeShop } from "../fake-shopify/shop";
import { refundWebhookBody } from "../fake-shopify/webhooks";
import { parseJsonKeepingLongIntegers } from "../app/webhooks/lossless-json";
import { perSecond, row, type BenchRow } from "./support";

const LONG_INTEGER = /^-?\d{16,}$/;
/** The same result from Node 22+'s own JSON.parse: a reviver that reads each number's source text. */
const withSourceReviver = (text: string): unknown =>
  JSON.parse(text, (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === "number" && context?.source && LONG_INTEGER.test(context.source) ? context.source : value,
  );

/**
 * The intake parses every refunds/create body keeping ids above 2^53 exact. Node 22 can do that
 * with a reviver (`context.source`), in four lines: is it as fast as the hand-written pass?
 */
export function benchLosslessJson(): BenchRow[] {
  const shop = new FakeShop("bench.myshopify.com");
  const order = shop.createOrder({
    amount: "120.00",
    payments: [
      { gateway: "shopify_payments", amount: "100.00" },
      { gateway: "gift_card", amount: "20.00" },
    ],
  });
  const refund = shop.createRefund(order.id, {
    transactions: [
      { amount: "50.00", gateway: "shopify_payments" },
      { amount: "10.00", gateway: "gift_card" },
    ],
  });
  const body = refundWebhookBody(shop, refund);
  if (JSON.stringify(withSourceReviver(body)) !== JSON.stringify(parseJsonKeepingLongIntegers(body))) throw new Error("the two parses differ");
  perSecond(() => parseJsonKeepingLongIntegers(body), 300);
  const ours = perSecond(() => parseJsonKeepingLongIntegers(body), 2000);
  const reviver = perSecond(() => withSourceReviver(body), 2000);
  const plain = perSecond(() => JSON.parse(body), 2000);
  const part = "1. webhook intake";
  const what = `lossless parse of a refunds/create body (${body.length.toLocaleString("en-US")} bytes), parses/s, one core`;
  return [
    row(part, what, ours, reviver, "parses/s", "JSON.parse with a context.source reviver (Node 22+)"),
    row(part, what, ours, plain, "parses/s", "plain JSON.parse (ids above 2^53 lose digits)"),
  ];
}
