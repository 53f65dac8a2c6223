import { Box, Button, InlineStack, Text } from "@shopify/polaris";

/**
 * The line above the table: "3 new refunds · Show" when a refresh brought rows that wait, a quiet
 * note otherwise. Its height never changes, so it moves nothing below it.
 */
export function NewRows({ held, onShow }: { held: number; onShow: () => void }) {
  return (
    <Box paddingInline="300" paddingBlock="100" minHeight="2.25rem">
      <InlineStack gap="200" blockAlign="center" wrap={false}>
        <div role="status" aria-live="polite">
          {held > 0 ? (
            <Button variant="plain" onClick={onShow}>
              {`${held} new refund${held === 1 ? "" : "s"} · Show`}
            </Button>
          ) : (
            <Text as="span" variant="bodySm" tone="subdued">
              New refunds appear here as Shopify reports them.
            </Text>
          )}
        </div>
      </InlineStack>
    </Box>
  );
}
