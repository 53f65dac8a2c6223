import nodemailer, { type Transporter } from "nodemailer";
import { SLACK_WEBHOOK_ORIGIN } from "./settings-form";
import { config } from "../lib/config/env.server";

/**
 * What became of one try to send: delivered; not delivered and worth another try; refused for
 * good; or uncertain (it may have arrived: the app does not send it again on its own, so that it
 * can never arrive twice; the delivery log offers a person "Send again").
 */
export type SendOutcome =
  { kind: "delivered" } | { kind: "retry"; error: string; afterMs?: number } | { kind: "failed"; error: string } | { kind: "uncertain"; error: string };

const TIMEOUT_MS = 10_000;

/** SLACK_WEBHOOK_ORIGIN points the app at a local receiver for the demo and the tests (loopback only, checked at start). */
export function slackWebhookOrigin(): string {
  const override = config().SLACK_WEBHOOK_ORIGIN;
  return override ? new URL(override).href.replace(/\/$/, "") : SLACK_WEBHOOK_ORIGIN;
}

// A connection that never reached Slack: nothing was posted.
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** Posts a message to a Slack incoming webhook. Slack answers 200 "ok", or a 4xx naming the problem (no_service, channel_is_archived…). */
export async function postToSlack(url: string, message: unknown): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(message),
      redirect: "error",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const code = ((error as Error & { cause?: { code?: string } }).cause?.code ?? "") as string;
    if (NOT_CONNECTED.has(code)) return { kind: "retry", error: `Slack could not be reached (${code}).` };
    return {
      kind: "uncertain",
      error: `No answer from Slack (${(error as Error).name === "TimeoutError" ? "timed out after 10 s" : code || (error as Error).message}): the message may or may not have been posted.`,
    };
  }
  const body = (await response.text().catch(() => "")).slice(0, 200);
  if (response.ok) return { kind: "delivered" };
  if (response.status === 429)
    return { kind: "retry", error: "Slack asked to slow down (429).", afterMs: (Number(response.headers.get("retry-after")) || 30) * 1000 };
  // 503: Slack took nothing. 500, 502, 504: its edge may have answered after the post went through.
  if (response.status === 503) return { kind: "retry", error: `Slack answered 503${body ? `: ${body}` : ""}.` };
  if (response.status >= 500)
    return { kind: "uncertain", error: `Slack answered ${response.status}${body ? `: ${body}` : ""}: the message may or may not have been posted.` };
  return {
    kind: "failed",
    error: `Slack refused the message (${response.status}${body ? `: ${body}` : ""}). Check the webhook URL in the alert settings: it may have been revoked or its channel archived.`,
  };
}

/** Errors nodemailer raises before any mail was handed over: no host, no connection, no greeting. */
function beforeTheMailTransaction(failure: { code?: string; originalCode?: string; timeoutType?: string; message: string }): boolean {
  if (failure.timeoutType && ["CONNECT_TIMEOUT", "GREETING_TIMEOUT", "UPGRADE_TIMEOUT"].includes(failure.timeoutType)) return true;
  if (failure.code === "EDNS") return true;
  return (
    NOT_CONNECTED.has(failure.originalCode ?? failure.code ?? "") || /\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)\b/.test(failure.message)
  );
}

let mailer: { url: string; transport: Transporter } | undefined;

function mailTransport(url: string): Transporter {
  if (mailer?.url !== url)
    mailer = { url, transport: nodemailer.createTransport({ url, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS }) };
  return mailer.transport;
}

export interface Email {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Stable per delivery: a copy sent again by a person is recognisably the same message. */
  messageId: string;
}

/** Sends over SMTP_URL (smtp://user:pass@host:port, smtps://…). An SMTP 5xx is a refusal, a 4xx or no connection is tried again. */
export async function sendEmail(email: Email): Promise<SendOutcome> {
  const { SMTP_URL, ALERTS_FROM } = config();
  if (!SMTP_URL) return { kind: "failed", error: "Email is not set up on this app's server (SMTP_URL is not configured)." };
  try {
    await mailTransport(SMTP_URL).sendMail({
      from: ALERTS_FROM,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: email.messageId,
    });
    return { kind: "delivered" };
  } catch (error) {
    const failure = error as Error & { code?: string; originalCode?: string; timeoutType?: string; responseCode?: number; response?: string };
    const said = failure.response ? `: ${failure.response}` : "";
    if (failure.responseCode && failure.responseCode >= 500)
      return { kind: "failed", error: `The mail server refused the message (${failure.responseCode}${said}).` };
    if (failure.responseCode && failure.responseCode >= 400)
      return { kind: "retry", error: `The mail server asked to try later (${failure.responseCode}${said}).` };
    if (beforeTheMailTransaction(failure)) return { kind: "retry", error: `The mail server could not be reached (${failure.message}).` };
    // No answer after the connection was up: the message may have been accepted.
    return { kind: "uncertain", error: `The connection to the mail server broke while sending (${failure.message}): it may or may not have arrived.` };
  }
}
