import type { RangeKey } from "../../../verdicts/filters";

export const RANGE_LABELS: Record<RangeKey, string> = { today: "Today", "7d": "Last 7 days", "30d": "Last 30 days", all: "All time", custom: "Custom dates" };
