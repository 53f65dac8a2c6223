import { Badge, Text } from "@shopify/polaris";
import { VERDICT_LABELS, VERDICT_TONES } from "./reasons";

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
  return <Text as="span" tone="subdued">—</Text>;
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
  return new Date(iso).toISOString().replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
}

/** The order in Shopify admin; App Bridge resolves shopify://admin links inside the admin. */
export function adminOrderUrl(orderId: string): string {
  return `shopify://admin/orders/${orderId}`;
}

export const ORIGIN_LABELS: Record<string, string> = { webhook: "Webhook", reconciliation: "Found by sweep", app: "Issued in app" };
