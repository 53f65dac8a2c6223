import { Card, EmptyState } from "@shopify/polaris";
import type { ReviewData } from "../types";

const EMPTY = {
  open: { heading: "Nothing needs a person right now", text: "Contradicted, failed and unverifiable refunds appear here until someone resolves them." },
  history: {
    heading: "Nothing from before the install needs a person",
    text: "When the app verifies the shop's history, the refunds it finds contradicted, failed or unverifiable appear here.",
  },
  resolved: { heading: "Nothing resolved yet", text: "Refunds resolved with a note appear here, with who resolved them." },
};

interface Props {
  view: ReviewData["view"];
  /** A search or filter is applied: the tab may not be empty, only what they select. */
  filtering: boolean;
  onClearFilters: () => void;
}

export function EmptyQueue({ view, filtering, onClearFilters }: Props) {
  return (
    <Card>
      {filtering ? (
        <EmptyState heading="No items match this search and these filters" image="" action={{ content: "Clear search and filters", onAction: onClearFilters }}>
          <p>Nothing in this tab matches the search and filters together. Clear them to see every item again.</p>
        </EmptyState>
      ) : (
        <EmptyState heading={EMPTY[view].heading} image="">
          <p>{EMPTY[view].text}</p>
        </EmptyState>
      )}
    </Card>
  );
}
