import { Badge, BlockStack, Button, Card, InlineStack, Page, Text } from "@shopify/polaris";
import { formatInstant, utcTitle } from "../lib/time/format";
import { VERDICT_LABELS, VERDICT_TONES } from "../verdicts/words";

export function VerdictBadge({ status }: { status: string }) {
  const tone = VERDICT_TONES[status as keyof typeof VERDICT_TONES];
  return (
    <Badge tone={tone} progress={status === "PENDING" ? "partiallyComplete" : "complete"}>
      {VERDICT_LABELS[status] ?? status}
    </Badge>
  );
}

export function ReviewBadge({ state }: { state: string }) {
  if (state === "open") return <Badge tone="attention">Needs review</Badge>;
  if (state === "resolved") return <Badge>Resolved</Badge>;
  return (
    <Text as="span" tone="subdued">
      —
    </Text>
  );
}

/** "4 min ago", against the server's clock so server and browser render the same text. */
export function age(fromIso: string, nowIso: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(nowIso) - Date.parse(fromIso)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

export function when(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, " UTC");
}

/** The order in Shopify admin; App Bridge resolves shopify://admin links inside the admin. */
export function adminOrderUrl(orderId: string): string {
  return `shopify://admin/orders/${orderId}`;
}

/** An instant in the shop's time zone, the exact UTC instant on hover. */
export function Instant({ iso, timeZone }: { iso: string; timeZone: string }) {
  return (
    <time dateTime={iso} title={utcTitle(iso)}>
      {formatInstant(iso, timeZone)}
    </time>
  );
}

/** The refund form on an order, coming back to `back` when done. */
export function refundFormUrl(orderId: string, back = "/app"): string {
  return `/app/orders/${orderId}/refund?back=${/^\/[\w/.-]*$/.test(back) ? back : encodeURIComponent(back)}`;
}

/** A page that is not there (unknown refund, order or address): said in the app's frame, with a way back. */
export function NotFoundPage({ title, message }: { title: string; message: string }) {
  return (
    <Page backAction={{ content: "Refunds", url: "/app" }} title={title}>
      <Card>
        <BlockStack gap="300">
          <Text as="p">{message}</Text>
          <InlineStack gap="300">
            <Button url="/app" variant="primary">
              Back to refunds
            </Button>
            <Button url="/app/review">Open the review queue</Button>
          </InlineStack>
        </BlockStack>
      </Card>
    </Page>
  );
}
