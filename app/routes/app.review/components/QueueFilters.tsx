import { Box, ChoiceList, Filters, Select } from "@shopify/polaris";
import type { useUrlFilters } from "../../../dashboard/use-url-filters";
import { CLASSES } from "../../../dashboard/filters";
import { VERDICT_LABELS, CLASS_LABELS } from "../../../dashboard/reasons";
import type { ReviewData } from "../route";

const SORT_OPTIONS = [
  { label: "Oldest first", value: "oldest" },
  { label: "Newest first", value: "newest" },
  { label: "Largest amount", value: "amount_desc" },
  { label: "Smallest amount", value: "amount_asc" },
];

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
    ...(filters.classes.length
      ? [{ key: "class", label: `Problem: ${filters.classes.map((c) => CLASS_LABELS[c]).join(", ")}`, onRemove: () => update({ class: undefined }) }]
      : []),
  ];
  return (
    <Box padding="200">
      <div style={{ display: "flex", flexDirection: smDown ? "column" : "row", gap: "var(--p-space-200)", alignItems: smDown ? "stretch" : "flex-start" }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Filters
            queryValue={query}
            queryPlaceholder="Search by order name or number"
            onQueryChange={setQuery}
            onQueryClear={() => setQuery("")}
            onClearAll={() => {
              setQuery("");
              update({ verdict: undefined, class: undefined, q: undefined });
            }}
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
              {
                key: "class",
                label: "Problem",
                pinned: true,
                filter: (
                  <ChoiceList
                    title="Problem"
                    titleHidden
                    allowMultiple
                    choices={Object.keys(CLASSES).map((value) => ({ value, label: CLASS_LABELS[value] }))}
                    selected={filters.classes}
                    onChange={(v) => update({ class: v })}
                  />
                ),
              },
            ]}
          />
        </div>
        <Box minWidth="180px" paddingBlockStart="100" paddingInlineStart={smDown ? "200" : "0"}>
          <Select label="Sort" labelInline options={SORT_OPTIONS} value={filters.sort} onChange={(v) => update({ sort: v })} />
        </Box>
      </div>
    </Box>
  );
}
