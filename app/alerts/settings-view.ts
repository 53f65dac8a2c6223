import type { AlertSettings } from "@prisma/client";
import { AT_RISK_CHOICE, isExposureAlert } from "./exposure-alerts";
import { isMoneyAlert, MONEY_CHOICE } from "./money";
import { ALERT_CHOICES, LATER_CHOICES, type DeliveryMode } from "./settings-form";

/** A shop's alert settings as the app reads them (pure: the delivery, events and the screen share it; settings.server.ts stores them). */
export interface AlertSettingsView {
  emailRecipients: string[];
  slackConfigured: boolean;
  slackHint: string | null;
  verdicts: string[];
  delivery: DeliveryMode;
  digestHour: number;
  revision: number;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettingsView = {
  emailRecipients: [],
  slackConfigured: false,
  slackHint: null,
  verdicts: [...ALERT_CHOICES],
  delivery: "instant",
  digestHour: 8,
  revision: 0,
};

/**
 * The stored choices (AlertSettings.verdicts): those ticked, and "-MONEY" for a choice the form
 * offered only later (LATER_CHOICES) that a person left unticked. Such a choice is on while the
 * row does not name it either way: a shop that saved its settings before money alerts existed
 * gets them, as a shop that never saved does, until someone unticks them.
 */
function choicesOf(stored: string): string[] {
  const named = stored ? stored.split(",") : [];
  return ALERT_CHOICES.filter((choice) => named.includes(choice) || (LATER_CHOICES.includes(choice) && !named.includes(`-${choice}`)));
}

export function storedChoices(chosen: string[]): string {
  return [...chosen, ...LATER_CHOICES.filter((choice) => !chosen.includes(choice)).map((choice) => `-${choice}`)].join(",");
}

export function settingsView(row: AlertSettings | null): AlertSettingsView {
  if (!row) return DEFAULT_ALERT_SETTINGS;
  return {
    emailRecipients: row.emailRecipients ? row.emailRecipients.split(",") : [],
    slackConfigured: Boolean(row.slackUrlSealed),
    slackHint: row.slackUrlHint,
    verdicts: choicesOf(row.verdicts),
    delivery: row.delivery as DeliveryMode,
    digestHour: row.digestHour,
    revision: row.revision,
  };
}

export type Channel = "email" | "slack";

export function channelsOf(settings: AlertSettingsView): Channel[] {
  return [...(settings.emailRecipients.length ? (["email"] as const) : []), ...(settings.slackConfigured ? (["slack"] as const) : [])];
}

/** The choice that sends an event: its verdict's own (OVER_LIMIT's too), or the one its kind of alert goes by ("Money problems", "Money at risk twice"). */
function choiceOf(verdict: string): string {
  if (isMoneyAlert(verdict)) return MONEY_CHOICE;
  if (isExposureAlert(verdict)) return AT_RISK_CHOICE;
  return verdict;
}

/** Whether a verdict (or a money or at-risk-twice alert) is sent as an instant alert (rather than only in the digest, or not at all). */
export function wantsInstant(settings: AlertSettingsView, verdict: string): boolean {
  const choice = choiceOf(verdict);
  return settings.delivery !== "digest" && settings.verdicts.includes(choice) && channelsOf(settings).length > 0;
}

/** A shop's Slack URL is sealed for that shop's settings row: copied to another shop's row, it does not open. */
export const slackUrlBoundTo = (shop: string) => `AlertSettings.slackUrl:${shop}`;
