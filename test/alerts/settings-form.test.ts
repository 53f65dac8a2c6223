import { describe, expect, it } from "vitest";
import { parseAlertSettingsForm, slackUrlProblem } from "../../app/alerts/settings-form";

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries({ delivery: "instant", digestHour: "8", revision: "0", ...fields }))
    for (const v of [value].flat()) data.append(key, v);
  return data;
};

describe("the alert settings form", () => {
  it("takes addresses separated by commas, spaces or lines, lower-cased and without repeats", () => {
    const parsed = parseAlertSettingsForm(form({ emailRecipients: "Ops@Shop.test, owner@shop.test\nops@shop.test", verdicts: ["CONTRADICTED", "FAILED"] }));
    expect(parsed).toEqual({
      ok: true,
      value: {
        emailRecipients: ["ops@shop.test", "owner@shop.test"],
        slackUrl: undefined,
        removeSlack: false,
        verdicts: ["CONTRADICTED", "FAILED"],
        delivery: "instant",
        digestHour: 8,
        revision: 0,
      },
    });
  });

  it("names the addresses that are not addresses, and the fields that are wrong", () => {
    const parsed = parseAlertSettingsForm(form({ emailRecipients: "ops@shop.test, nobody, @x", delivery: "weekly", digestHour: "25", verdicts: ["VERIFIED"] }));
    expect(parsed).toEqual({
      ok: false,
      fieldErrors: {
        emailRecipients: "Not an email address: nobody, @x.",
        delivery: "Choose instant alerts, a daily digest or both.",
        digestHour: "Choose an hour from 0 to 23.",
        verdicts: "Choose among Contradicted, Failed, Unverifiable, Money problems, Money at risk twice and Refunds over a limit.",
      },
    });
  });

  it("refuses more than 20 addresses", () => {
    const many = Array.from({ length: 21 }, (_, i) => `p${i}@shop.test`).join(",");
    expect(parseAlertSettingsForm(form({ emailRecipients: many }))).toEqual({ ok: false, fieldErrors: { emailRecipients: "At most 20 addresses." } });
  });

  it("a form without its revision is incomplete, not a silent overwrite", () => {
    const data = form({});
    data.delete("revision");
    expect(parseAlertSettingsForm(data)).toEqual({ ok: false, fieldErrors: { form: "The form was sent incomplete. Reload the page and try again." } });
  });
});

describe("a Slack URL", () => {
  it.each([
    ["https://hooks.slack.com/services/T000/B000/XXXX", null],
    ["http://hooks.slack.com/services/T000/B000/XXXX", "starts with https://hooks.slack.com/services/"],
    ["https://hooks.slack.com.evil.example/services/T/B/X", "starts with https://hooks.slack.com/services/"],
    ["https://hooks.slack.com/workflows/T/B/X", "starts with https://hooks.slack.com/services/"],
    ["https://user:pw@hooks.slack.com/services/T/B/X", "must not carry credentials"],
    ["https://hooks.slack.com/services/T/B/X?redirect=1", "must not carry credentials"],
    ["hooks.slack.com/services/T/B/X", "This is not a URL"],
  ])("%s", (url, problem) => {
    const found = slackUrlProblem(url);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });

  it("under a local receiver's origin for the demo and the tests", () => {
    expect(slackUrlProblem("http://127.0.0.1:4000/slack/services/T/B/X", "http://127.0.0.1:4000/slack")).toBeNull();
    expect(slackUrlProblem("http://127.0.0.1:4000/other/services/T/B/X", "http://127.0.0.1:4000/slack")).toContain(
      "starts with http://127.0.0.1:4000/slack/services/",
    );
  });
});
