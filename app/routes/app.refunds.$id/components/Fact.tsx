import type { ReactNode } from "react";
import { BlockStack, Text } from "@shopify/polaris";

/** One fact of a section: its label above its value, so that each reads whole on a phone. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <div>{children}</div>
    </BlockStack>
  );
}
