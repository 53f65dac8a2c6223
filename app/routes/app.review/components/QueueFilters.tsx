import { ChoiceList, Filters } from "@shopify/polaris";
import type { useUrlFilters } from "../../../dashboard/use-url-filters";
import { FilterBar, problemChip, problemFilter } from "../../../dashboard/list-controls";
import { VERDICT_LABELS } from "../../../verdicts/words";
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
  const appliedFilters = [
    ...(filters.verdicts.length
      ? [{ key: "verdict", label: `Verdict: ${filters.verdicts.map((v) => VERDICT_LABELS[v]).join(", ")}`, onRemove: () => update({ verdict: undefined }) }]
      : []),
    ...problemChip(filters.classes, update),
  ];
  return (
    <FilterBar smDown={smDown} sortOptions={SORT_OPTIONS} sort={filters.sort} update={update}>
      <Filters
        queryValue={query}
        queryPlaceholder="Search by order name or number"
        onQueryChange={setQuery}
        onQueryClear={() => setQuery("")}
        onClearAll={() => clearQueueFilters(setQuery, update)}
        appliedFilters={appliedFilters}
        filters={[
          {
            key: "verdict",
            label: "Verdict",
            pinned: true,
            filter: (
              <ChoiceList
                title="Verdict"
                titleHidden
                allowMultiple
                choices={["CONTRADICTED", "FAILED", "UNVERIFIABLE"].map((value) => ({ value, label: VERDICT_LABELS[value] }))}
                selected={filters.verdicts}
                onChange={(v) => update({ verdict: v })}
              />
            ),
          },
          problemFilter(filters.classes, update, true),
        ]}
      />
    </FilterBar>
  );
}
