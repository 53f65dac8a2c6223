import { Form, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Checkbox, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { LimitsSaveResult } from "../../../guardrails/settings.server";
import { SectionCard } from "../../../components/SectionCard";
import { useNarrowScreen } from "../../../components/useNarrowScreen";
import type { LimitsLoaderData } from "../types";
import { personLimitMeaning, shopLimitMeaning, type ShopField } from "./limit-meaning";

type Errors = Partial<Record<string, string>>;

const SHOP_FIELDS: { name: ShopField; label: string; kind: "amount" | "count" }[] = [
  { name: "perRefund", label: "Per refund", kind: "amount" },
  { name: "dailyPerStaff", label: "Per staff member in 24 hours", kind: "amount" },
  { name: "shopHourlyCount", label: "Refunds in an hour, whole shop", kind: "count" },
  { name: "shopHourlyAmount", label: "Amount in an hour, whole shop", kind: "amount" },
  { name: "shopDailyCount", label: "Refunds in 24 hours, whole shop", kind: "count" },
  { name: "shopDailyAmount", label: "Amount in 24 hours, whole shop", kind: "amount" },
];

function Field({
  name,
  label,
  help,
  value,
  onChange,
  currency,
  readOnly,
  error,
}: {
  name: string;
  label: string;
  help: string;
  value: string;
  onChange: (value: string) => void;
  currency: string | null;
  readOnly: boolean;
  error?: string;
}) {
  // Read-only rather than disabled for whoever may not change them: the limits and what they do stay as legible as the owner's (a disabled field's
  // help is too faint to read: axe color-contrast).
  return (
    <TextField
      label={label}
      name={name}
      value={value}
      onChange={onChange}
      autoComplete="off"
      inputMode={currency ? "decimal" : "numeric"}
      prefix={currency ?? undefined}
      placeholder="No limit"
      helpText={help}
      readOnly={readOnly}
      error={error}
    />
  );
}

function Toggle({ label, name, initial, disabled = false }: { label: string; name: string; initial: boolean; disabled?: boolean }) {
  const [checked, setChecked] = useState(initial);
  return <Checkbox label={label} name={name} value="on" checked={checked} onChange={setChecked} disabled={disabled} />;
}

/** A person's roles for whoever may not change them: words, not checkboxes too faint to read when disabled. */
function RolesInWords({ approver, setsLimits }: { approver: boolean; setsLimits: boolean }) {
  const roles = [...(approver ? ["Approves refunds"] : []), ...(setsLimits ? ["Changes limits"] : [])];
  return roles.length ? (
    <InlineStack gap="200">
      {roles.map((role) => (
        <Badge key={role} tone="info">
          {role}
        </Badge>
      ))}
    </InlineStack>
  ) : (
    <Text as="p" tone="subdued">
      Neither approves refunds nor changes limits.
    </Text>
  );
}

/** The typed values of every amount and count on the page, by field name: a person's limits are explained against the shop's as typed. */
function useValues(data: LimitsLoaderData) {
  const [values, setValues] = useState<Record<string, string>>(() => ({
    ...data.limits,
    ...Object.fromEntries(data.people.flatMap((p) => [[`perRefund.${p.userId}`, p.perRefund] as const, [`daily.${p.userId}`, p.daily] as const])),
  }));
  return { values, set: (name: string) => (value: string) => setValues((current) => ({ ...current, [name]: value })) };
}

type Values = ReturnType<typeof useValues>;

/** The shop's limits and its people: who approves, who may change the limits, anyone's own limits. Read-only for whoever may not change them. */
export function LimitsForm({ data, result }: { data: LimitsLoaderData; result: LimitsSaveResult | undefined }) {
  const navigation = useNavigation();
  const narrow = useNarrowScreen();
  const errors: Errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const readOnly = !data.viewer.maySetLimits;
  const fields = useValues(data);
  return (
    <Form method="post" aria-label="Refund limits">
      <input type="hidden" name="revision" value={result?.ok ? result.revision : data.revision} />
      {/* Everyone shown, the owner too: an owner's own limits are fields of the page like anyone's (their roles are always on). */}
      <input type="hidden" name="people" value={data.people.map((p) => p.userId).join(",")} />
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
        <ShopLimits data={data} fields={fields} errors={errors} readOnly={readOnly} />
        <People data={data} fields={fields} errors={errors} readOnly={readOnly} />
        {!readOnly && (
          <InlineStack align="end">
            <Button submit variant="primary" size="large" fullWidth={narrow} loading={navigation.state === "submitting"}>
              Save limits
            </Button>
          </InlineStack>
        )}
      </BlockStack>
    </Form>
  );
}

type SectionProps = { data: LimitsLoaderData; fields: Values; errors: Errors; readOnly: boolean };

/** The shop's own limits: per refund, per person a day, the shop's hour and day. */
function ShopLimits({ data, fields: { values, set }, errors, readOnly }: SectionProps) {
  return (
    <SectionCard title="Limits">
      <Text as="p" tone="subdued">
        {`A refund asked for in this app that goes over a limit is not sent to Shopify: it waits for an approver, who sees why. Leave a field empty for no limit; none is on until you set it. Amounts are in ${data.currency ?? "the shop's currency"}. Refunds made in Shopify admin, on POS or in other apps cannot be stopped: those over a limit are shown to you in the review queue and alerts.`}
      </Text>
      <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
        {SHOP_FIELDS.map((field) => (
          <Field
            key={field.name}
            name={field.name}
            label={field.label}
            help={shopLimitMeaning(field.name, values[field.name] ?? "", data.currency)}
            value={values[field.name] ?? ""}
            onChange={set(field.name)}
            currency={field.kind === "amount" ? data.currency : null}
            readOnly={readOnly}
            error={errors[field.name]}
          />
        ))}
      </InlineGrid>
    </SectionCard>
  );
}

/** Everyone who opened the app: their own limits, and (the owner's to name) who approves and who changes limits. */
function People({ data, fields, errors, readOnly }: SectionProps) {
  const ownerEdits = data.viewer.accountOwner;
  return (
    <SectionCard title="People">
      <Text as="p" tone="subdued">
        Staff appear here once they have opened the app. The account owner always approves and sets limits. An approver never approves their own refund.
        {ownerEdits ? "" : " Only the account owner names who changes limits."}
      </Text>
      {data.people.map((person) => (
        <Box key={person.userId} paddingBlockStart="300" borderBlockStartWidth="025" borderColor="border">
          <div data-person={person.userId}>
            <BlockStack gap="300">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h3" variant="headingSm">
                  {person.name}
                </Text>
                {person.accountOwner && <Badge>Account owner</Badge>}
              </InlineStack>
              <PersonLimits person={person} currency={data.currency} fields={fields} errors={errors} readOnly={readOnly} />
              {!person.accountOwner && readOnly && <RolesInWords approver={person.approver} setsLimits={person.setsLimits} />}
              {!person.accountOwner && !readOnly && (
                <InlineStack gap="400">
                  <Toggle label="Approves refunds" name={`approver.${person.userId}`} initial={person.approver} />
                  <Toggle label="Changes limits" name={`setsLimits.${person.userId}`} initial={person.setsLimits} disabled={!ownerEdits} />
                  {/* A disabled checkbox is not posted: what the owner set is posted unchanged. */}
                  {!ownerEdits && person.setsLimits && <input type="hidden" name={`setsLimits.${person.userId}`} value="on" />}
                </InlineStack>
              )}
            </BlockStack>
          </div>
        </Box>
      ))}
    </SectionCard>
  );
}

/** One person's limit per refund and in 24 hours, each saying what it means beside the shop's. */
function PersonLimits({
  person,
  currency,
  fields: { values, set },
  errors,
  readOnly,
}: { person: LimitsLoaderData["people"][number]; currency: string | null } & Omit<SectionProps, "data">) {
  return (
    <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
      {(["perRefund", "daily"] as const).map((kind) => {
        const name = `${kind}.${person.userId}`;
        return (
          <Field
            key={kind}
            name={name}
            label={kind === "perRefund" ? "Their limit per refund" : "Their limit in 24 hours"}
            value={values[name] ?? ""}
            onChange={set(name)}
            currency={currency}
            readOnly={readOnly}
            error={errors[name]}
            help={personLimitMeaning(kind, person.name, values[name] ?? "", values[kind === "perRefund" ? "perRefund" : "dailyPerStaff"] ?? "", currency)}
          />
        );
      })}
    </InlineGrid>
  );
}
