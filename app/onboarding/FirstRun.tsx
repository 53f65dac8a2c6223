import { BlockStack, Box, Button, InlineStack, List, Text } from "@shopify/polaris";
import { SectionCard } from "../components/SectionCard";
import { VerdictBadge } from "../components/ui";
import { nextSteps, VERDICT_MEANINGS, WHAT_IT_DOES } from "./content";

export interface FirstRunProps {
  sweep: { intervalMs: number; firstLookBackMs: number; lastCompletedAt: string | null; runningSince: string | null };
}

/** The dashboard of a shop with no refund yet: what the app does, what each verdict means, what comes next. */
export function FirstRun({ sweep }: FirstRunProps) {
  return (
    <BlockStack gap="400">
      <SectionCard title="Watching this shop's refunds" gap="200">
        <Text as="p">{WHAT_IT_DOES}</Text>
        <Text as="p" tone="subdued">
          No refund has been made in this shop since the app was installed. There is nothing for you to set up.
        </Text>
      </SectionCard>
      <SectionCard title="What happens next">
        <List type="number">
          {nextSteps(sweep).map((step) => (
            <List.Item key={step}>{step}</List.Item>
          ))}
        </List>
      </SectionCard>
      <SectionCard title="What each verdict means">
        <BlockStack gap="300" as="ul">
          {VERDICT_MEANINGS.map(({ status, meaning }) => (
            <Box as="li" key={status} data-verdict-meaning={status}>
              <InlineStack gap="200" blockAlign="start" wrap={false}>
                <Box minWidth="110px">
                  <VerdictBadge status={status} />
                </Box>
                <Text as="span">{meaning}</Text>
              </InlineStack>
            </Box>
          ))}
        </BlockStack>
      </SectionCard>
      <InlineStack gap="200">
        <Button url="/app/review">Open the review queue</Button>
      </InlineStack>
    </BlockStack>
  );
}
