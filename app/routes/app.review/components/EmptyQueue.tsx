import { Card, EmptyState } from "@shopify/polaris";
import type { ReviewData } from "../route";

export function EmptyQueue({ view }: { view: ReviewData["view"] }) {
  return (
    <Card>
      <EmptyState heading={view === "open" ? "Nothing needs a person right now" : "Nothing resolved yet"} image="">
        <p>
          {view === "open"
            ? "Contradicted, failed and unverifiable refunds appear here until someone resolves them."
            : "Refunds resolved with a note appear here, with who resolved them."}
        </p>
      </EmptyState>
    </Card>
  );
}
