import { z } from "zod";
import { parseInstant } from "./values";

export const OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "time_after", "time_before"] as const;
export const EVIDENCE_LEVELS = ["E0", "E1", "E2", "E3", "E4"] as const;
/** Every verdict, the one list the engine, the screens, the filters, the CSV and the alerts use. */
export const VERDICTS = ["PENDING", "VERIFIED", "CONTRADICTED", "FAILED", "UNVERIFIABLE"] as const;
export const FINAL_VERDICTS = ["VERIFIED", "CONTRADICTED", "FAILED", "UNVERIFIABLE"] as const satisfies readonly (typeof VERDICTS)[number][];

const pathPattern = /^\$(input|action|operation|observed)((\.[A-Za-z_][A-Za-z0-9_]*)|(\[(\d+|\*)\]))*$/;
const pathMessage = "must be a path such as $observed.channel.field[0].name, rooted at $input, $action, $operation or $observed";
const wildcards = (path: string) => path.split("[*]").length - 1;

/** A path that names one value: a correlation key, the subject's identity. */
export const contractPath = z
  .string()
  .regex(pathPattern, pathMessage)
  .refine((path) => wildcards(path) === 0, "names one value, so it cannot use [*]");

/** A condition's observed side, the one place `[*]` may stand, once: "some element" has one meaning, nested ones would not. */
const conditionPath = z
  .string()
  .regex(pathPattern, pathMessage)
  .refine((path) => wildcards(path) <= 1, "may use [*] only once");

const literal = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const expectedValue = z.union([literal, z.array(literal)]);

const id = z.string().regex(/^[a-z][a-z0-9_]*$/, "must be a snake_case identifier");
const level = z.enum(EVIDENCE_LEVELS);

const comparison = {
  path: conditionPath,
  operator: z.enum(OPERATORS),
  expected: expectedValue,
  evidence: id,
};

export const verifiedCondition = z.object({ id, meaning: z.string().min(1), ...comparison }).strict();
export const contradictionCondition = z
  .object({ id, class: z.string().min(1), reason: z.string().min(1), ...comparison })
  .strict();
export const preCompletionRule = z
  .object({
    id,
    verdict: z.enum(["FAILED", "CONTRADICTED", "UNVERIFIABLE"]),
    reason: z.string().min(1),
    /** Whether the verdict goes to a person (the review queue, alerts). Absent: it does. */
    escalate: z.boolean().optional(),
    ...comparison,
  })
  .strict();

export const channel = z
  .object({
    id,
    level,
    independence: z.string().min(1),
    verifier: z.string().min(1),
    description: z.string().min(1),
  })
  .strict();

const correlationKey = z.object({ name: z.string().min(1), path: contractPath }).strict();

export const contractSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, "must be a dotted identifier such as shopify.refund.created"),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, "must be a semantic version such as 1.0.0"),
    title: z.string().min(1),
    summary: z.string().min(1),
    hash: z.string().regex(/^[0-9a-f]{16}$/, "must be 16 lowercase hex digits"),
    completion_level: z.string().min(1),
    certification: z.string().min(1),
    skill: z.object({ name: z.string().min(1), version: z.string().min(1) }).strict(),
    provider_api_versions: z.array(z.string().min(1)).min(1),
    intent: z.string().min(1),
    subject: z
      .object({
        type: z.string().min(1),
        identity: correlationKey,
        canonical_effect: z.string().min(1),
        provider_operation: z.string().min(1),
        // Free text such as "not stated", or the provider's mechanism when its documentation states one.
        idempotency: z.union([
          z.string().min(1),
          z
            .object({ directive: z.string().min(1), operation: z.string().min(1), required_from: z.string().min(1), key: z.string().min(1) })
            .strict(),
        ]),
      })
      .strict(),
    correlation: z
      .array(
        z
          .object({
            strategy: z.string().min(1),
            assurance: z.enum(["strong", "weak"]),
            required: z.boolean(),
            keys: z.array(correlationKey).min(1),
          })
          .strict(),
      )
      .min(1),
    evidence: z
      .object({
        minimum_level: level,
        independent_channel_required: z.boolean(),
        minimum_channels: z.number().int().min(0),
        action_response_level: level,
      })
      .strict(),
    channels: z.array(channel).min(1),
    verified_when: z.array(verifiedCondition).min(1),
    contradicted_when: z.array(contradictionCondition),
    rules: z.array(preCompletionRule),
    timing: z
      .object({
        initial_delay_ms: z.number().int().min(0),
        poll_interval_ms: z.number().int().positive(),
        backoff: z
          .object({
            kind: z.enum(["exponential", "fixed"]),
            factor: z.number().min(1),
            max_ms: z.number().int().positive(),
          })
          .strict(),
        max_attempts: z.number().int().positive(),
        timeout_ms: z.number().int().positive(),
        stale_read_window_ms: z.number().int().min(0),
        on_timeout: z
          .object({ verdict: z.literal("UNVERIFIABLE"), reason: z.string().min(1), escalate: z.boolean() })
          .strict(),
      })
      .strict(),
    action_response_alone: z.object({ can_verify: z.boolean(), explanation: z.string().min(1) }).strict(),
    after_timeout: z.string().min(1),
    sources: z
      .array(z.object({ ref: z.string().min(1), source: z.string().min(1), retrieved: z.string().min(1) }).strict())
      .min(1),
  })
  .strict()
  .superRefine((contract, ctx) => {
    const channelIds = new Set(contract.channels.map((c) => c.id));
    const seen = new Set<string>();
    const groups = [
      ["verified_when", contract.verified_when],
      ["contradicted_when", contract.contradicted_when],
      ["rules", contract.rules],
    ] as const;
    for (const [group, conditions] of groups) {
      conditions.forEach((condition, index) => {
        if (seen.has(condition.id)) {
          ctx.addIssue({ code: "custom", path: [group, index, "id"], message: `duplicate condition id "${condition.id}"` });
        }
        seen.add(condition.id);
        if (!channelIds.has(condition.evidence)) {
          ctx.addIssue({ code: "custom", path: [group, index, "evidence"], message: `names no declared channel: "${condition.evidence}"` });
        }
        for (const [member, value] of [["path", condition.path], ["expected", condition.expected]] as const) {
          const observedChannel = typeof value === "string" ? /^\$observed\.([A-Za-z_][A-Za-z0-9_]*)/.exec(value)?.[1] : undefined;
          if (observedChannel && !channelIds.has(observedChannel)) {
            ctx.addIssue({ code: "custom", path: [group, index, member], message: `reads undeclared channel "${observedChannel}"` });
          }
          if (member === "expected" && isPath(value) && wildcards(value) > 0) {
            ctx.addIssue({ code: "custom", path: [group, index, member], message: "cannot use [*]: it is allowed on the observed side (path) only" });
          }
        }
        if (condition.operator === "in" && !Array.isArray(condition.expected) && !isPath(condition.expected)) {
          ctx.addIssue({ code: "custom", path: [group, index, "expected"], message: "operator in needs a list or a path" });
        }
      });
    }
    if (new Set(contract.channels.map((c) => c.id)).size !== contract.channels.length) {
      ctx.addIssue({ code: "custom", path: ["channels"], message: "channel ids must be unique" });
    }
  });

export type Contract = z.infer<typeof contractSchema>;
export type Channel = z.infer<typeof channel>;
export type Operator = (typeof OPERATORS)[number];
export type ExpectedValue = z.infer<typeof expectedValue>;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];

/** Whether an expected value is a path rather than a literal string. */
export function isPath(value: unknown): value is string {
  return typeof value === "string" && pathPattern.test(value);
}

const instant = z
  .string()
  .refine((value) => parseInstant(value) !== undefined, "must be an ISO 8601 instant with an offset, such as 2026-11-29T10:00:05Z");

export const bindingsSchema = z
  .object({
    input: z.record(z.unknown()),
    action: z.object({ result: z.unknown() }).passthrough(),
    operation: z.object({ created_at: instant }).passthrough(),
    observed: z.record(z.unknown()),
    now: instant,
  })
  .strict();

export type Bindings = z.infer<typeof bindingsSchema>;
