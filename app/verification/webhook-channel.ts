/** A stored refunds/create delivery, as the webhook verifier reads it. */
export interface StoredDelivery {
  webhookId: string;
  eventId: string | null;
  topic: string;
  refundGid: string;
  triggeredAt: Date | null;
  receivedAt: Date;
  refundCreatedAt: Date;
  redeliveries: number;
}

export interface WebhookEvent {
  webhook_id: string;
  event_id: string | null;
  type: string;
  resource_id: string;
  triggered_at: string | null;
  received_at: string;
}

/** What the contract's `webhook` verifier returns. */
export interface WebhookChannelOutput {
  events: WebhookEvent[];
  count: number;
  latest: string | null;
  earliest: string | null;
  types: string[];
  duplicates_dropped: number;
}

/**
 * Summarises deliveries as events. `distinctBy` names what makes two deliveries one event:
 * the event (X-Shopify-Event-Id, else the delivery id) for a refund's own webhooks, the refund
 * for an order's (a second refund is what `order_refund_events` is there to see). Redeliveries
 * of one delivery, and further deliveries of one event, are counted in duplicates_dropped.
 */
export function summarizeDeliveries(deliveries: StoredDelivery[], distinctBy: "event" | "refund"): WebhookChannelOutput {
  const ordered = [...deliveries].sort((a, b) => (a.triggeredAt ?? a.receivedAt).getTime() - (b.triggeredAt ?? b.receivedAt).getTime());
  const seen = new Set<string>();
  const events: WebhookEvent[] = [];
  let duplicates = 0;
  for (const delivery of ordered) {
    duplicates += delivery.redeliveries;
    const key = distinctBy === "refund" ? delivery.refundGid : (delivery.eventId ?? delivery.webhookId);
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    events.push({
      webhook_id: delivery.webhookId,
      event_id: delivery.eventId,
      type: delivery.topic,
      resource_id: delivery.refundGid,
      triggered_at: delivery.triggeredAt?.toISOString() ?? null,
      received_at: delivery.receivedAt.toISOString(),
    });
  }
  const times = events.map((e) => e.triggered_at ?? e.received_at);
  return {
    events,
    count: events.length,
    latest: times.at(-1) ?? null,
    earliest: times[0] ?? null,
    types: [...new Set(events.map((e) => e.type))],
    duplicates_dropped: duplicates,
  };
}

/** The order's refunds/create deliveries for refunds created since the operation started (whole seconds, as the contract's window). */
export function sinceOperationStart<T extends StoredDelivery>(deliveries: T[], startedAt: Date): T[] {
  const startSecond = Math.floor(startedAt.getTime() / 1000);
  return deliveries.filter((d) => Math.floor(d.refundCreatedAt.getTime() / 1000) >= startSecond);
}
