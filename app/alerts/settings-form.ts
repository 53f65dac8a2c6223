import { z } from "zod";
import { fieldErrors } from "../lib/forms/field-errors";
import { AT_RISK_CHOICE } from "./exposure-alerts";
import { MONEY_CHOICE } from "./money";
import { OVER_LIMIT } from "./over-limit-alerts";

export const ALERT_VERDICTS = ["CONTRADICTED", "FAILED", "UNVERIFIABLE"] as const;
/**
 * What a shop chooses to be alerted of: the verdicts that need a person, "MONEY" (money problems:
 * a verified refund whose money did not settle, app/alerts/money.ts), "AT_RISK_TWICE" (a
 * verified refund whose order has a chargeback or gave back more than was paid,
 * app/alerts/exposure-alerts.ts) and "OVER_LIMIT" (a refund made outside the app over one of the
 * shop's refund limits, app/alerts/over-limit-alerts.ts). Each of the last two is a choice of its
 * own, not Contradicted's: a shop that silences its duplicates and wrong amounts must not miss a
 * chargeback's due date, nor a refund past its limits. A refund waiting for approval is no choice
 * at all: its approvers are asked whatever is ticked (app/alerts/approval-events.server.ts).
 */
export const ALERT_CHOICES = [...ALERT_VERDICTS, MONEY_CHOICE, AT_RISK_CHOICE, OVER_LIMIT] as const;
/** Choices the form offered only later: on for a shop that saved its settings before they existed. */
export const LATER_CHOICES: readonly string[] = [MONEY_CHOICE, AT_RISK_CHOICE, OVER_LIMIT];
export const DELIVERY_MODES = ["instant", "digest", "both"] as const;
export const MAX_RECIPIENTS = 20;
/** Where Slack's incoming webhooks live; the demo and the tests point it at a local receiver. */
export const SLACK_WEBHOOK_ORIGIN = "https://hooks.slack.com";

export type DeliveryMode = (typeof DELIVERY_MODES)[number];

export interface AlertSettingsInput {
  emailRecipients: string[];
  /** A new Slack URL; undefined keeps the stored one. */
  slackUrl?: string;
  removeSlack: boolean;
  verdicts: string[];
  delivery: DeliveryMode;
  digestHour: number;
  revision: number;
}

export type FieldErrors = Partial<Record<"emailRecipients" | "slackUrl" | "verdicts" | "delivery" | "digestHour" | "form", string>>;

const email = z.string().email();

function recipients(text: string, ctx: z.RefinementCtx): string[] {
  const list = [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const invalid = list.filter((address) => !email.safeParse(address).success);
  if (invalid.length) ctx.addIssue({ code: "custom", message: `Not an email address: ${invalid.slice(0, 3).join(", ")}.` });
  if (list.length > MAX_RECIPIENTS) ctx.addIssue({ code: "custom", message: `At most ${MAX_RECIPIENTS} addresses.` });
  return list;
}

/** An incoming-webhook URL of Slack's (https://hooks.slack.com/services/…), nothing else: the app posts to it. */
export function slackUrlProblem(value: string, origin = SLACK_WEBHOOK_ORIGIN): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "This is not a URL. Copy the Webhook URL from your Slack app's Incoming Webhooks page.";
  }
  const expected = new URL(origin);
  if (url.origin !== expected.origin || !url.pathname.startsWith(`${expected.pathname.replace(/\/$/, "")}/services/`)) {
    return `A Slack incoming-webhook URL starts with ${expected.origin}${expected.pathname.replace(/\/$/, "")}/services/. Other addresses are not accepted.`;
  }
  if (url.username || url.password || url.search || url.hash) return "The URL must not carry credentials, a query or a fragment.";
  return null;
}

function schema(slackOrigin: string) {
  return z.object({
    emailRecipients: z.string().max(4000, "Too long.").default("").transform(recipients),
    slackUrl: z
      .string()
      .trim()
      .default("")
      .superRefine((value, ctx) => {
        const problem = value ? slackUrlProblem(value, slackOrigin) : null;
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .transform((value) => value || undefined),
    removeSlack: z.enum(["on"]).optional().transform(Boolean),
    verdicts: z
      .array(
        z.enum(ALERT_CHOICES, {
          errorMap: () => ({ message: "Choose among Contradicted, Failed, Unverifiable, Money problems, Money at risk twice and Refunds over a limit." }),
        }),
      )
      .default([]),
    delivery: z.enum(DELIVERY_MODES, { errorMap: () => ({ message: "Choose instant alerts, a daily digest or both." }) }),
    digestHour: z.coerce.number({ invalid_type_error: "Choose an hour." }).int().min(0, "Choose an hour from 0 to 23.").max(23, "Choose an hour from 0 to 23."),
    revision: z.coerce.number().int().min(0),
  });
}

/** The settings form, parsed: the values, or an error per field in words a merchant can act on. */
export function parseAlertSettingsForm(
  form: FormData,
  slackOrigin = SLACK_WEBHOOK_ORIGIN,
): { ok: true; value: AlertSettingsInput } | { ok: false; fieldErrors: FieldErrors } {
  const raw = {
    emailRecipients: form.get("emailRecipients") ?? undefined,
    slackUrl: form.get("slackUrl") ?? undefined,
    removeSlack: form.get("removeSlack") ?? undefined,
    verdicts: form.getAll("verdicts"),
    delivery: form.get("delivery") ?? undefined,
    digestHour: form.get("digestHour") ?? undefined,
    revision: form.get("revision") ?? undefined,
  };
  const parsed = schema(slackOrigin).safeParse(raw);
  if (!parsed.success) {
    // The hidden fields are the form's own: a problem with them is the form's, sent incomplete.
    const { revision, removeSlack, ...fields } = fieldErrors(parsed.error, "form");
    return { ok: false, fieldErrors: revision || removeSlack ? { ...fields, form: "The form was sent incomplete. Reload the page and try again." } : fields };
  }
  return { ok: true, value: parsed.data };
}
