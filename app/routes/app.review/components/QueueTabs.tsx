import { Tabs } from "@shopify/polaris";
import type { useUrlFilters } from "../../../dashboard/use-url-filters";
import type { ReviewData } from "../types";

/** Needs review (since install), history (the shop's past) or resolved; the tabs share one panel, the list below. */
export function QueueTabs({
  view,
  counts,
  smDown,
  update,
}: {
  view: ReviewData["view"];
  counts: ReviewData["counts"];
  smDown: boolean;
  update: ReturnType<typeof useUrlFilters>["update"];
}) {
  const tabs = [
    { id: "open", content: `Needs review (${counts.open})`, panelID: "review-panel" },
    { id: "history", content: `From before install (${counts.history})`, panelID: "review-panel" },
    { id: "resolved", content: `Resolved (${counts.resolved})`, panelID: "review-panel" },
  ];
  const views = ["open", "history", "resolved"] as const;
  return (
    <Tabs
      tabs={tabs}
      selected={views.indexOf(view)}
      onSelect={(index) => update({ view: index === 0 ? undefined : views[index], sort: undefined })}
      fitted={smDown}
    />
  );
}
