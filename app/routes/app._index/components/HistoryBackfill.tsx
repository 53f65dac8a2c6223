import { useFetcher } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, ProgressBar, Select, Text } from "@shopify/polaris";
import { useState } from "react";
import type { BackfillCardData } from "../../../backfill/card.server";
import { Instant } from "../../../components/ui";
import type { Action } from "../types";

const DAY_CHOICES = [30, 60, 90, 180, 365];
const STATE_TONES: Record<string, "info" | "success" | "critical" | "attention" | undefined> = {
  queued: "attention",
  reading: "info",
  verifying: "info",
  done: "success",
  failed: "critical",
};

/** The refunds made before install: the backfill's state, a progress bar while it runs, and what the history holds when done. */
export function HistoryBackfill({ backfill, maxDays, timeZone }: { backfill: BackfillCardData; maxDays: number; timeZone: string }) {
  // Only the days Shopify lets the app read: no choice the app would quietly cut short.
  const choices = DAY_CHOICES.filter((d) => d <= maxDays).map((d) => ({ value: String(d), label: `Last ${d} days` }));
  const fetcher = useFetcher<Action>();
  const [days, setDays] = useState("60");
  const answer = fetcher.data;
  const error = answer && !answer.ok ? answer.fieldErrors.days : undefined;
  const running = backfill?.running ?? false;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              Refunds before the app was installed
            </Text>
            {backfill && <Badge tone={STATE_TONES[backfill.state]}>{backfill.stateLabel}</Badge>}
          </InlineStack>
          <fetcher.Form method="post" action="/app?index">
            <input type="hidden" name="intent" value="backfill" />
            <InlineStack gap="200" blockAlign="start">
              <Select label="Days to verify" labelHidden name="days" options={choices} value={days} onChange={setDays} error={error} disabled={running} />
              <Button submit loading={fetcher.state !== "idle"} disabled={running}>
                {running ? "Verifying history…" : "Verify history"}
              </Button>
            </InlineStack>
          </fetcher.Form>
        </InlineStack>
        {!backfill && (
          <Text as="p" tone="subdued">
            The app verifies refunds from the moment it is installed. Verify the shop's history to find duplicates and gateway failures made before.
          </Text>
        )}
        {maxDays < DAY_CHOICES[DAY_CHOICES.length - 1] && (
          <Text as="p" tone="subdued" variant="bodySm">
            Shopify shows this app the last {maxDays} days of orders: refunds older than that cannot be verified here.
          </Text>
        )}
        {backfill && (
          <BlockStack gap="200">
            {running && <ProgressBar progress={backfill.percent} size="small" tone="primary" />}
            <Text as="p" id="backfill-progress" tone={backfill.state === "failed" ? "critical" : undefined}>
              {backfill.sentence ?? backfill.progress}
            </Text>
            <Text as="p" tone="subdued" variant="bodySm">
              The last {backfill.days} days, asked for <Instant iso={backfill.requestedAt} timeZone={timeZone} />
              {backfill.finishedAt ? (
                <>
                  {", ended "}
                  <Instant iso={backfill.finishedAt} timeZone={timeZone} />
                </>
              ) : null}
              {backfill.summary && backfill.summary.alreadyWatched
                ? ` · ${backfill.summary.alreadyWatched} of them were already verified as they happened`
                : ""}
              {backfill.summary && backfill.summary.badLines ? ` · ${backfill.summary.badLines} lines of Shopify's answer could not be read` : ""}
            </Text>
            {backfill.summary && backfill.summary.contradicted + backfill.summary.failed + backfill.summary.unverifiable > 0 && (
              <InlineStack gap="200">
                <Button url="/app?origin=backfill&review=open" variant="plain">
                  Show what needs a person
                </Button>
              </InlineStack>
            )}
          </BlockStack>
        )}
      </BlockStack>
    </Card>
  );
}
