import { Box, InlineStack, Text } from "@shopify/polaris";
import { Instant } from "../../../components/ui";
import { formatInstant } from "../../../lib/time/format";
import type { DashboardData } from "../types";
import { RANGE_LABELS } from "./labels";

/**
 * The reconciliation sweep is the only guarantee for refunds whose webhook was lost: say when it
 * last looked, in a merchant's words (Shopify's notice that did not arrive, not "webhook").
 */
function sweepStatus(sweep: { lastCompletedAt: string | null; runningSince: string | null }, timeZone: string): string {
  const last = sweep.lastCompletedAt
    ? `checked Shopify for refunds it did not announce ${formatInstant(sweep.lastCompletedAt, timeZone)}`
    : "not yet checked Shopify for refunds it did not announce";
  return sweep.runningSince ? `${last}; a check is running` : last;
}

export function PeriodHeader({
  filters,
  now,
  timeZone,
  sweep,
}: {
  filters: DashboardData["filters"];
  now: string;
  timeZone: string;
  sweep: DashboardData["sweep"];
}) {
  const periodLabel =
    filters.range && filters.range !== "custom"
      ? RANGE_LABELS[filters.range]
      : filters.from || filters.to
        ? `${filters.from ?? "…"} to ${filters.to ?? "…"}`
        : "Last 30 days";
  return (
    <Box paddingInline={{ xs: "400", sm: "0" }}>
      <InlineStack align="space-between" blockAlign="center" gap="200">
        <Text as="h2" variant="headingMd">
          {periodLabel}
        </Text>
        <Text as="p" tone="subdued" id="sweep-status">
          Updated <Instant iso={now} timeZone={timeZone} />
          {` · ${sweepStatus(sweep, timeZone)}`}
        </Text>
      </InlineStack>
    </Box>
  );
}
