import type { ReactNode } from "react";
import { Box, ChoiceList, InlineStack, Pagination, Select, Text, type BoxProps } from "@shopify/polaris";
import { CLASSES } from "../verdicts/filters";
import { CLASS_LABELS, VERDICT_LABELS } from "../verdicts/words";
import type { useUrlFilters } from "./use-url-filters";

type Update = ReturnType<typeof useUrlFilters>["update"];
type PageTo = ReturnType<typeof useUrlFilters>["page"];

/** The dashboard's and the review queue's filter row: Polaris Filters beside the sort, stacked on a phone. */
export function FilterBar({
  smDown,
  sortOptions,
  sort,
  update,
  children,
}: {
  smDown: boolean;
  sortOptions: { label: string; value: string }[];
  sort: string;
  update: Update;
  children: ReactNode;
}) {
  return (
    <Box padding="200">
      <div style={{ display: "flex", flexDirection: smDown ? "column" : "row", gap: "var(--p-space-200)", alignItems: smDown ? "stretch" : "flex-start" }}>
        <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
        <Box minWidth="180px" paddingBlockStart="100" paddingInlineStart={smDown ? "200" : "0"}>
          <Select label="Sort" labelInline options={sortOptions} value={sort} onChange={(v) => update({ sort: v })} />
        </Box>
      </div>
    </Box>
  );
}

/** The "Problem" filter (contradiction classes), and its chip once chosen. */
export function problemFilter(selected: string[], update: Update, pinned = false) {
  return {
    key: "class",
    label: "Problem",
    ...(pinned ? { pinned } : {}),
    filter: (
      <ChoiceList
        title="Problem"
        titleHidden
        allowMultiple
        choices={Object.keys(CLASSES).map((value) => ({ value, label: CLASS_LABELS[value] }))}
        selected={selected}
        onChange={(v) => update({ class: v })}
      />
    ),
  };
}

/** The "Verdict" filter, pinned: the verdicts a person may pick among (the review queue offers only those it holds). */
export function verdictFilter(verdicts: readonly string[], selected: string[], update: Update) {
  return {
    key: "verdict",
    label: "Verdict",
    pinned: true,
    filter: (
      <ChoiceList
        title="Verdict"
        titleHidden
        allowMultiple
        choices={verdicts.map((value) => ({ value, label: VERDICT_LABELS[value] }))}
        selected={selected}
        onChange={(v) => update({ verdict: v })}
      />
    ),
  };
}

export function verdictChip(selected: string[], update: Update) {
  return selected.length
    ? [{ key: "verdict", label: `Verdict: ${selected.map((v) => VERDICT_LABELS[v]).join(", ")}`, onRemove: () => update({ verdict: undefined }) }]
    : [];
}

export function problemChip(selected: string[], update: Update) {
  return selected.length
    ? [{ key: "class", label: `Problem: ${selected.map((c) => CLASS_LABELS[c]).join(", ")}`, onRemove: () => update({ class: undefined }) }]
    : [];
}

/** How many refunds the list holds, and the keyset pages through them. */
export function ResultsPagination({
  text,
  pageInfo,
  page,
  padding,
}: {
  text: string;
  pageInfo: { hasPrevious: boolean; hasNext: boolean; startCursor: string | null; endCursor: string | null };
  page: PageTo;
  padding: Pick<BoxProps, "padding" | "paddingInline">;
}) {
  return (
    <Box {...padding}>
      <InlineStack align="space-between" blockAlign="center" gap="200">
        <Text as="span" tone="subdued" variant="bodySm">
          {text}
        </Text>
        <Pagination
          hasPrevious={pageInfo.hasPrevious}
          onPrevious={() => page("before", pageInfo.startCursor)}
          hasNext={pageInfo.hasNext}
          onNext={() => page("after", pageInfo.endCursor)}
        />
      </InlineStack>
    </Box>
  );
}
