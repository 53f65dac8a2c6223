import { BlockStack, Card, InlineStack, Text, type BlockStackProps } from "@shopify/polaris";
import { createElement, type ReactNode } from "react";

/** A card headed by its title (a badge beside it, if given): the shape every section card of the screens had written out by hand. */
export function SectionCard({
  title,
  gap = "300",
  badge,
  children,
}: {
  title: ReactNode;
  gap?: BlockStackProps["gap"];
  /** Given (even a fragment that renders nothing), the heading sits in a row beside it; left out, the heading stands alone. */
  badge?: ReactNode;
  children?: ReactNode;
}) {
  const heading = (
    <Text as="h2" variant="headingMd">
      {title}
    </Text>
  );
  const head =
    badge === undefined ? (
      heading
    ) : (
      <InlineStack gap="200" blockAlign="center" wrap>
        {heading}
        {badge}
      </InlineStack>
    );
  // The heading and the card's children are one list, as when each card was written out: a field's id (React's useId, by its place
  // in the tree) stays the one it was.
  const rest = children === undefined ? [] : Array.isArray(children) ? children : [children];
  return <Card>{createElement(BlockStack, { gap }, head, ...rest)}</Card>;
}
