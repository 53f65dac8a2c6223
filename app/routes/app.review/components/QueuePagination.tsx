import { Box, InlineStack, Pagination, Text } from "@shopify/polaris";
import type { useUrlFilters } from "../../../dashboard/use-url-filters";
import type { ReviewData } from "../route";

/** How many refunds the tab holds, and the keyset pages through them. */
export function QueuePagination({
  total,
  pageInfo,
  page,
}: {
  total: number;
  pageInfo: ReviewData["pageInfo"];
  page: ReturnType<typeof useUrlFilters>["page"];
}) {
  return (
    <Box paddingInline={{ xs: "400", sm: "0" }}>
      <InlineStack align="space-between" blockAlign="center" gap="200">
        <Text as="span" tone="subdued" variant="bodySm">
          {`${total} refund${total === 1 ? "" : "s"}`}
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
