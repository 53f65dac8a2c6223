import { Tabs } from "@shopify/polaris";
import type { useUrlFilters } from "../../../dashboard/use-url-filters";
import type { ReviewData } from "../route";

/** Needs review or resolved; the tabs share one panel, the list below. */
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
    { id: "resolved", content: `Resolved (${counts.resolved})`, panelID: "review-panel" },
  ];
  return (
    <Tabs
      tabs={tabs}
      selected={view === "resolved" ? 1 : 0}
      onSelect={(index) => update({ view: index === 1 ? "resolved" : undefined, sort: undefined })}
      fitted={smDown}
    />
  );
}
