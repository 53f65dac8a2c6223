import type { PrismaClient } from "@prisma/client";
import { adminAppUrl } from "../alerts/admin-links.server";
import { slackWebhookOrigin } from "../alerts/channels.server";
import { shopNameOf } from "../alerts/events.server";
import { shopTimeZone } from "../shops/profile.server";
import { ALL_FLOW_TRIGGERS } from "../alerts/flow-triggers";
import { testAlert } from "../alerts/messages";
import { alertsSecretKey } from "../lib/crypto/secret-box.server";
import { parseAlertSettingsForm, type FieldErrors } from "../alerts/settings-form";
import { alertSettings, deliveryLog, queueTestAlert, saveAlertSettings, sendAgain } from "../alerts/settings.server";
import { channelsOf } from "../alerts/settings-view";
import { config } from "../lib/config/env.server";
import type { ScreenContext } from "./context.server";

const secretKeyState = (): "ok" | "missing" => (alertsSecretKey() ? "ok" : "missing");

/** Everything the alerts page shows: the settings (the Slack URL only as a hint), the server's readiness, Flow, the delivery log. */
export async function load({ db, shop }: ScreenContext) {
  const [settings, deliveries, usage, timeZone] = await Promise.all([
    alertSettings(db, shop),
    deliveryLog(db, shop),
    db.flowTriggerUsage.findMany({ where: { shop } }),
    shopTimeZone(db, shop),
  ]);
  return {
    settings,
    deliveries,
    timeZone,
    flowTriggers: ALL_FLOW_TRIGGERS.map((trigger) => {
      const used = usage.find((u) => u.definitionId === trigger.handle);
      return { ...trigger, enabled: used?.enabled ?? false, reportedAt: used?.reportedAt.toISOString() ?? null };
    }),
    server: { email: Boolean(config().SMTP_URL), secretKey: secretKeyState(), slackOrigin: slackWebhookOrigin() },
  };
}

type Outcome = { ok: true; status: 200; message: string } | { ok: false; status: number; fieldErrors: FieldErrors };

/**
 * The answer to one of the page's buttons, with which button it answers (and for "Send again", which
 * delivery), so the page shows it beside the button pressed rather than at the top of the form.
 */
export type AlertsActionResult = Outcome & { intent: "save" | "test" | "resend"; deliveryId?: string };

/** The page's three actions: save the settings, send a test alert, send a delivery again. */
export async function act(context: ScreenContext): Promise<AlertsActionResult> {
  return alertsAction(context.db, context.shop, (await context.form()) ?? new FormData(), context.now());
}

/** The action's answer for one shop's form at one instant (app/screens' `act`; the abuse tests press it at chosen instants). */
export async function alertsAction(db: PrismaClient, shop: string, form: FormData, now: Date): Promise<AlertsActionResult> {
  const intent = form.get("intent");
  if (intent === "test") return { intent, ...(await sendTest(db, shop, now)) };
  if (intent === "resend") {
    const deliveryId = String(form.get("id") ?? "");
    return { intent, deliveryId, ...(await resend(db, shop, deliveryId, now)) };
  }
  // An unknown intent is answered where a form's errors are: beside Save.
  if (intent !== "save") return { intent: "save", ok: false, status: 400, fieldErrors: { form: "Unknown action." } };
  return { intent, ...(await save(db, shop, form)) };
}

async function sendTest(db: PrismaClient, shop: string, now: Date): Promise<Outcome> {
  const settings = await alertSettings(db, shop);
  if (!channelsOf(settings).length)
    return { ok: false, status: 422, fieldErrors: { form: "Add an email address or a Slack URL and save before sending a test." } };
  const { queued, retryAfterMs } = await queueTestAlert(
    db,
    shop,
    now,
    testAlert(shopNameOf(shop), settings.verdicts, { settings: adminAppUrl(shop, "/settings/alerts") }),
  );
  if (!queued.length)
    return {
      ok: false,
      status: 429,
      fieldErrors: { form: `A test alert was sent less than a minute ago. Try again in ${Math.ceil(retryAfterMs / 1000)} s.` },
    };
  return {
    ok: true,
    status: 200,
    message: `Test alert queued for ${queued.map((channel) => (channel === "email" ? "email" : "Slack")).join(" and ")}. It appears in the delivery log below.`,
  };
}

async function resend(db: PrismaClient, shop: string, deliveryId: string, now: Date): Promise<Outcome> {
  const sent = await sendAgain(db, shop, deliveryId, now);
  return sent
    ? { ok: true, status: 200, message: "Queued to be sent again." }
    : {
        ok: false,
        status: 409,
        fieldErrors: { form: "This message is no longer failed or uncertain (it may have been sent again already). The log below shows where it is now." },
      };
}

async function save(db: PrismaClient, shop: string, form: FormData): Promise<Outcome> {
  const parsed = parseAlertSettingsForm(form, slackWebhookOrigin());
  if (!parsed.ok) return { ok: false, status: 422, fieldErrors: parsed.fieldErrors };
  const saved = await saveAlertSettings(db, shop, parsed.value);
  if (!saved.ok) return saved;
  return { ok: true, status: 200, message: "Alert settings saved." };
}
