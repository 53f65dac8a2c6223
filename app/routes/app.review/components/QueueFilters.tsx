import { Filters } from "@shopify/polaris";
import type { useUrlFilters } from "../../../dashboard/use-url-filters";
import { FilterBar, problemChip, problemFilter, verdictChip, verdictFilter } from "../../../dashboard/list-controls";
import type { ReviewData } from "../types";

const SORT_OPTIONS = [
  { label: "Oldest first", value: "oldest" },
  { label: "Newest first", value: "newest" },
  { label: "Largest amount", value: "amount_desc" },
  { label: "Smallest amount", value: "amount_asc" },
];

/** Back to every item of the tab: the search box emptied and every filter removed (the sort stays). */
export function clearQueueFilters(setQuery: (query: string) => void, update: Props["update"]) {
  setQuery("");
  update({ verdict: undefined, class: undefined, q: undefined });
}

interface Props {
  filters: ReviewData["filters"];
  smDown: boolean;
  query: string;
  setQuery: (query: string) => void;
  update: ReturnType<typeof useUrlFilters>["update"];
}

export function QueueFilters({ filters, smDown, query, setQuery, update }: Props) {
  const appliedFilters = [...verdictChip(filters.verdicts, update), ...problemChip(filters.classes, update)];
  return (
    <FilterBar smDown={smDown} sortOptions={SORT_OPTIONS} sort={filters.sort} update={update}>
      <Filters
        queryValue={query}
        queryPlaceholder="Search by order name or number"
        onQueryChange={setQuery}
        onQueryClear={() => setQuery("")}
        onClearAll={() => clearQueueFilters(setQuery, update)}
        appliedFilters={appliedFilters}
        filters={[verdictFilter(["CONTRADICTED", "FAILED", "UNVERIFIABLE"], filters.verdicts, update), problemFilter(filters.classes, update, true)]}
      />
    </FilterBar>
  );
}
