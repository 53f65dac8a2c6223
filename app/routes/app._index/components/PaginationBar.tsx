import { Box, InlineStack, Pagination, Text } from "@shopify/polaris";
import type { useUrlFilters } from "../../../dashboard/use-url-filters";
import type { DashboardData } from "../route";

/** How many refunds match, and the keyset pages through them. */
export function PaginationBar({
  total,
  pageInfo,
  page,
}: {
  total: number;
  pageInfo: DashboardData["pageInfo"];
  page: ReturnType<typeof useUrlFilters>["page"];
}) {
  return (
    <Box padding="300">
      <InlineStack align="space-between" blockAlign="center" gap="200">
        <Text as="span" tone="subdued" variant="bodySm">
          {`${total} refund${total === 1 ? "" : "s"} match`}
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
