import { useState } from "react";
import { Form, useNavigation, useSubmit } from "@remix-run/react";
import { BlockStack, Box, Button, Checkbox, ChoiceList, InlineStack, Select, TextField } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import type { AlertSettingsView } from "../../../alerts/settings.server";
import type { AlertsActionResult } from "../../../screens/alert-settings.server";
import type { FieldErrors } from "../../../alerts/settings-form";
import { AnswerBeside, type Answer } from "./AnswerBeside";

const VERDICT_CHOICES = [
  { label: "Contradicted", value: "CONTRADICTED", helpText: "A duplicate refund, a wrong amount or the wrong order." },
  { label: "Failed at the gateway", value: "FAILED", helpText: "The refund exists but the payment provider did not pay it back." },
  { label: "Unverifiable", value: "UNVERIFIABLE", helpText: "Shopify showed no evidence of the refund before the timeout." },
  {
    label: "Money problems",
    value: "MONEY",
    helpText: "A verified refund's money did not settle: its payout failed, Shopify Payments reversed it or took another amount, or it never settled.",
  },
  {
    label: "Money at risk twice",
    value: "AT_RISK_TWICE",
    helpText: "A refunded order has a chargeback open or lost, or its refunds (store credit too) give back more than the customer paid.",
  },
  {
    label: "Refunds over a limit",
    value: "OVER_LIMIT",
    helpText:
      "Someone refunded more than your refund limits allow in Shopify admin, on POS or through another app, where the app cannot stop it. Refunds waiting for approval go to their approvers whatever you choose here.",
  },
];
const DELIVERY_CHOICES = [
  { label: "Instant", value: "instant", helpText: "Verdicts decided close together arrive as one message, within about two minutes." },
  { label: "Daily digest", value: "digest", helpText: "One summary each morning in your shop's time zone." },
  { label: "Both", value: "both" },
];
const HOURS = Array.from({ length: 24 }, (_, hour) => ({ label: `${String(hour).padStart(2, "0")}:00`, value: String(hour) }));

/** The fields' labels, to name beside Save the ones that stopped it. */
const FIELD_LABELS: Record<Exclude<keyof FieldErrors, "form">, string> = {
  emailRecipients: "Email addresses",
  slackUrl: "Slack incoming-webhook URL",
  verdicts: "Verdicts that alert",
  delivery: "Delivery",
  digestHour: "Daily digest at",
};

/** The answer to Save or "Send a test alert", in words for beside the buttons; "Send again" answers in the log. */
function answerOf(result: AlertsActionResult | undefined): Answer | null {
  if (!result || result.intent === "resend") return null;
  if (result.ok) return { tone: "success", text: result.message };
  if (result.intent === "test") return { tone: "critical", text: result.fieldErrors.form ?? "The test alert was not sent." };
  if (result.fieldErrors.form) return { tone: "critical", text: `Not saved: ${result.fieldErrors.form}` };
  const fields = Object.keys(result.fieldErrors).map((field) => FIELD_LABELS[field as keyof typeof FIELD_LABELS] ?? field);
  return { tone: "critical", text: `Not saved: check ${fields.join(" and ")} above.` };
}

/** Where alerts go and which verdicts send them. Field errors come back from the server's zod parse, in words. */
export function AlertSettingsForm({
  settings,
  slackOrigin,
  result,
}: {
  settings: AlertSettingsView;
  slackOrigin: string;
  result: AlertsActionResult | undefined;
}) {
  const [emailRecipients, setEmailRecipients] = useState(settings.emailRecipients.join(", "));
  const [slackUrl, setSlackUrl] = useState("");
  const [removeSlack, setRemoveSlack] = useState(false);
  const [verdicts, setVerdicts] = useState<string[]>(settings.verdicts);
  const [delivery, setDelivery] = useState<string[]>([settings.delivery]);
  const [digestHour, setDigestHour] = useState(String(settings.digestHour));
  const errors = result && !result.ok && result.intent === "save" ? result.fieldErrors : {};
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="revision" value={settings.revision} />
      {verdicts.map((verdict) => (
        <input key={verdict} type="hidden" name="verdicts" value={verdict} />
      ))}
      <input type="hidden" name="delivery" value={delivery[0]} />
      <input type="hidden" name="digestHour" value={digestHour} />
      {removeSlack && <input type="hidden" name="removeSlack" value="on" />}
      <BlockStack gap="400">
        <SectionCard title="Where alerts go" gap="400">
          <TextField
            label="Email addresses"
            name="emailRecipients"
            value={emailRecipients}
            onChange={setEmailRecipients}
            multiline={2}
            autoComplete="email"
            helpText="Separate addresses with commas."
            error={errors.emailRecipients}
          />
          <TextField
            label="Slack incoming-webhook URL"
            name="slackUrl"
            value={slackUrl}
            onChange={setSlackUrl}
            autoComplete="off"
            placeholder={`${slackOrigin}/services/…`}
            helpText={
              settings.slackConfigured
                ? `Saved: ${settings.slackHint}. Leave empty to keep it. The URL is stored encrypted and never shown again.`
                : "From your Slack app's Incoming Webhooks page. It is stored encrypted and never shown again."
            }
            error={errors.slackUrl}
          />
          {settings.slackConfigured && <Checkbox label="Stop sending to Slack" checked={removeSlack} onChange={setRemoveSlack} />}
        </SectionCard>
        <SectionCard title="What is sent, and when" gap="400">
          <ChoiceList allowMultiple title="Verdicts that alert" choices={VERDICT_CHOICES} selected={verdicts} onChange={setVerdicts} error={errors.verdicts} />
          <ChoiceList title="Delivery" choices={DELIVERY_CHOICES} selected={delivery} onChange={setDelivery} error={errors.delivery} />
          <Select
            label="Daily digest at (your shop's time)"
            options={HOURS}
            value={digestHour}
            onChange={setDigestHour}
            disabled={delivery[0] === "instant"}
            error={errors.digestHour}
          />
        </SectionCard>
        <FormButtons settings={settings} result={result} />
      </BlockStack>
    </Form>
  );
}

/**
 * "Send a test alert" and Save, with the answer to either right under both, where the person's eyes
 * are: at the top of the form it was off-screen from the buttons (issue 26). On a phone the cards
 * run edge to edge; the buttons and their answer keep off the edge.
 */
function FormButtons({ settings, result }: { settings: AlertSettingsView; result: AlertsActionResult | undefined }) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const busy = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  return (
    <Box paddingInline={{ xs: "400", sm: "0" }}>
      <BlockStack gap="200" inlineAlign="end">
        <InlineStack gap="300" align="end">
          <Button
            onClick={() => submit({ intent: "test" }, { method: "post" })}
            loading={busy === "test"}
            disabled={!settings.emailRecipients.length && !settings.slackConfigured}
          >
            Send a test alert
          </Button>
          <Button submit variant="primary" loading={busy === "save"}>
            Save
          </Button>
        </InlineStack>
        <AnswerBeside answer={answerOf(result)} answering={result} />
      </BlockStack>
    </Box>
  );
}
