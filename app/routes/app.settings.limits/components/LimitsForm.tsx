import { Form, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, Checkbox, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { LimitsSaveResult } from "../../../guardrails/settings.server";
import type { LimitsLoaderData } from "../types";

type Errors = Partial<Record<string, string>>;

const SHOP_FIELDS = [
  {
    name: "perRefund",
    label: "Per refund",
    kind: "amount",
    help: "A refund over this waits for an approver, unless the person has a limit of their own below.",
  },
  {
    name: "dailyPerStaff",
    label: "Per staff member in 24 hours",
    kind: "amount",
    help: "Once one person's refunds in any 24 hours would pass this, the next waits for approval. Catches one refund split into several.",
  },
  {
    name: "shopHourlyCount",
    label: "Refunds in an hour, whole shop",
    kind: "count",
    help: "Counts every refund the app knows of, made in the app or elsewhere.",
  },
  { name: "shopHourlyAmount", label: "Amount in an hour, whole shop", kind: "amount", help: "The total refunded in any hour, every refund counted." },
  { name: "shopDailyCount", label: "Refunds in 24 hours, whole shop", kind: "count", help: "Counts every refund the app knows of in any 24 hours." },
  { name: "shopDailyAmount", label: "Amount in 24 hours, whole shop", kind: "amount", help: "The total refunded in any 24 hours, every refund counted." },
] as const;

function Field({
  name,
  label,
  help,
  value,
  currency,
  disabled,
  error,
}: {
  name: string;
  label: string;
  help?: string;
  value: string;
  currency: string | null;
  disabled: boolean;
  error?: string;
}) {
  const [text, setText] = useState(value);
  return (
    <TextField
      label={label}
      name={name}
      value={text}
      onChange={setText}
      autoComplete="off"
      inputMode={currency ? "decimal" : "numeric"}
      prefix={currency ?? undefined}
      placeholder="No limit"
      helpText={help}
      disabled={disabled}
      error={error}
    />
  );
}

function Toggle({ label, name, initial, disabled, helpText }: { label: string; name: string; initial: boolean; disabled: boolean; helpText?: string }) {
  const [checked, setChecked] = useState(initial);
  return <Checkbox label={label} name={name} value="on" checked={checked} onChange={setChecked} disabled={disabled} helpText={helpText} />;
}

/** The shop's limits and its people: who approves, who may change the limits, anyone's own limits. Read-only for whoever may not change them. */
export function LimitsForm({ data, result }: { data: LimitsLoaderData; result: LimitsSaveResult | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors: Errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const readOnly = !data.viewer.maySetLimits;
  const ownerEdits = data.viewer.accountOwner;
  return (
    <Form method="post">
      <input type="hidden" name="revision" value={result?.ok ? result.revision : data.revision} />
      <input
        type="hidden"
        name="people"
        value={data.people
          .filter((p) => !p.accountOwner)
          .map((p) => p.userId)
          .join(",")}
      />
      <BlockStack gap="400">
        {readOnly && (
          <Banner tone="info" title="You can see the limits, not change them">
            Only the account owner, or staff the owner names below, can change them.
          </Banner>
        )}
        {data.savedIn && (
          <Banner tone="warning" title={`These limits are in ${data.savedIn}; the shop now sells in ${data.currency}`}>
            Every refund asked for in the app waits for approval until the limits are saved again in {data.currency}.
          </Banner>
        )}
        {result && (
          <Banner tone={result.ok ? "success" : "critical"} title={result.ok ? "Saved" : "Not saved"}>
            {result.message}
          </Banner>
        )}
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              Limits
            </Text>
            <Text as="p" tone="subdued">
              A refund asked for in this app that goes over a limit is not sent to Shopify: it waits for an approver, who sees why. Leave a field empty for no
              limit; none is on until you set it. Amounts are in {data.currency ?? "the shop's currency"}. Refunds made in Shopify admin, on POS or in other
              apps cannot be stopped: those over a limit are shown to you in the review queue and alerts.
            </Text>
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
              {SHOP_FIELDS.map((field) => (
                <Field
                  key={field.name}
                  name={field.name}
                  label={field.label}
                  help={field.help}
                  value={data.limits[field.name]}
                  currency={field.kind === "amount" ? data.currency : null}
                  disabled={readOnly}
                  error={errors[field.name]}
                />
              ))}
            </InlineGrid>
          </BlockStack>
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              People
            </Text>
            <Text as="p" tone="subdued">
              Staff appear here once they have opened the app. The account owner always approves and sets limits. An approver never approves their own refund.
            </Text>
            {data.people.map((person) => (
              <Box key={person.userId} paddingBlockStart="200" borderBlockStartWidth="025" borderColor="border">
                <BlockStack gap="200">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h3" variant="headingSm">
                      {person.name}
                    </Text>
                    {person.accountOwner && <Badge>Account owner</Badge>}
                  </InlineStack>
                  <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
                    <Field
                      name={`perRefund.${person.userId}`}
                      label="Their limit per refund"
                      value={person.perRefund}
                      currency={data.currency}
                      disabled={readOnly}
                      error={errors[`perRefund.${person.userId}`]}
                      help="Empty: the shop's."
                    />
                    <Field
                      name={`daily.${person.userId}`}
                      label="Their limit in 24 hours"
                      value={person.daily}
                      currency={data.currency}
                      disabled={readOnly}
                      error={errors[`daily.${person.userId}`]}
                      help="Empty: the shop's."
                    />
                  </InlineGrid>
                  {!person.accountOwner && (
                    <InlineStack gap="400">
                      <Toggle label="Approves refunds" name={`approver.${person.userId}`} initial={person.approver} disabled={readOnly} />
                      <Toggle
                        label="Changes limits"
                        name={`setsLimits.${person.userId}`}
                        initial={person.setsLimits}
                        disabled={readOnly || !ownerEdits}
                        helpText={ownerEdits ? undefined : "Only the account owner names them."}
                      />
                      {/* A disabled checkbox is not posted: what the owner set is posted unchanged. */}
                      {!ownerEdits && person.setsLimits && <input type="hidden" name={`setsLimits.${person.userId}`} value="on" />}
                    </InlineStack>
                  )}
                </BlockStack>
              </Box>
            ))}
          </BlockStack>
        </Card>
        {!readOnly && (
          <InlineStack align="end">
            <Button submit variant="primary" loading={busy}>
              Save limits
            </Button>
          </InlineStack>
        )}
      </BlockStack>
    </Form>
  );
}
