import { Badge, InlineStack, Text } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import { Instant } from "../../../components/ui";

interface Trigger {
  handle: string;
  name: string;
  enabled: boolean;
  reportedAt: string | null;
}

/** The app's Flow triggers and whether a workflow of this shop uses each (Flow's lifecycle callback says so). */
export function FlowTriggers({ triggers, timeZone }: { triggers: Trigger[]; timeZone: string }) {
  return (
    <SectionCard title="Shopify Flow">
      <Text as="p" tone="subdued">
        Start a workflow in Shopify Flow with one of these triggers (tag the order, message your team, open a ticket). The app sends a trigger only while a
        workflow uses it.
      </Text>
      {triggers.map((trigger) => (
        <InlineStack key={trigger.handle} gap="200" blockAlign="center" align="space-between">
          <Text as="span" fontWeight="medium">
            {trigger.name}
          </Text>
          <InlineStack gap="200" blockAlign="center">
            {trigger.reportedAt && (
              <Text as="span" tone="subdued" variant="bodySm">
                since <Instant iso={trigger.reportedAt} timeZone={timeZone} />
              </Text>
            )}
            <Badge tone={trigger.enabled ? "success" : undefined}>{trigger.enabled ? "Used by a workflow" : "Not used"}</Badge>
          </InlineStack>
        </InlineStack>
      ))}
    </SectionCard>
  );
}
