import { Card, EmptyState } from "@shopify/polaris";
import type { ReviewData } from "../route";

const EMPTY = {
  open: { heading: "Nothing needs a person right now", text: "Contradicted, failed and unverifiable refunds appear here until someone resolves them." },
  history: {
    heading: "Nothing from before the install needs a person",
    text: "When the app verifies the shop's history, the refunds it finds contradicted, failed or unverifiable appear here.",
  },
  resolved: { heading: "Nothing resolved yet", text: "Refunds resolved with a note appear here, with who resolved them." },
};

export function EmptyQueue({ view }: { view: ReviewData["view"] }) {
  return (
    <Card>
      <EmptyState heading={EMPTY[view].heading} image="">
        <p>{EMPTY[view].text}</p>
      </EmptyState>
    </Card>
  );
}
