import type { LoadedContract } from "./load";
import { applyOperator, type ConditionStatus } from "./operators";
import { resolvePath } from "./paths";
import { EVIDENCE_LEVELS, isPath, type Bindings, type Channel, type Contract, type ExpectedValue } from "./schema";
import { parseInstant } from "./values";

export type Verdict = "VERIFIED" | "CONTRADICTED" | "FAILED" | "UNVERIFIABLE" | "PENDING";
export type ConditionGroup = "verified" | "contradicted" | "rule";

export interface ConditionResult {
  id: string;
  group: ConditionGroup;
  status: ConditionStatus;
  path: string;
  operator: string;
  expected: ExpectedValue;
  /** The resolved expected value when `expected` is a path. */
  expected_value?: unknown;
  actual: unknown;
  evidence: string;
}

export interface Evaluation {
  verdict: Verdict;
  reason: string;
  reasons: string[];
  escalate: boolean;
  /** What the verdict means, in the contract's own words. */
  explanation: string;
  classes: string[];
  conditions: ConditionResult[];
  evidence: { observed_channels: string[]; qualifying_channels: string[]; requirement_met: boolean };
  contract: { id: string; version: string; declared_hash: string; computed_hash: string };
  evaluated_at: string;
}

export const PENDING_REASON = "awaiting_evidence";
export const VERIFIED_REASON = "all_conditions_hold";

type AnyCondition = Contract["verified_when"][number] | Contract["contradicted_when"][number] | Contract["rules"][number];

function check(bindings: Bindings, condition: AnyCondition, group: ConditionGroup): ConditionResult {
  const actual = resolvePath(bindings, condition.path);
  let expectedValue: unknown = condition.expected;
  let expectedKnown = true;
  const expectedIsPath = isPath(condition.expected);
  if (expectedIsPath) {
    const resolved = resolvePath(bindings, condition.expected as string);
    expectedKnown = resolved.found;
    expectedValue = resolved.found ? resolved.value : undefined;
  }
  const status: ConditionStatus =
    actual.found && expectedKnown ? applyOperator(condition.operator, actual.value, expectedValue) : "unknown";
  const result: ConditionResult = {
    id: condition.id,
    group,
    status,
    path: condition.path,
    operator: condition.operator,
    expected: condition.expected,
    actual: actual.found ? actual.value : null,
    evidence: condition.evidence,
  };
  if (expectedIsPath) result.expected_value = expectedValue ?? null;
  return result;
}

function levelRank(level: string): number {
  return EVIDENCE_LEVELS.indexOf(level as (typeof EVIDENCE_LEVELS)[number]);
}

/** A channel counts towards the evidence requirement when it was observed, is independent (not the action's own response) and reaches the minimum level. */
function evidenceRequirement(contract: Contract, bindings: Bindings) {
  const observed = contract.channels.filter((channel) => bindings.observed[channel.id] != null);
  const isIndependent = (channel: Channel) => channel.independence !== "none";
  const qualifying = observed.filter(
    (channel) =>
      levelRank(channel.level) >= levelRank(contract.evidence.minimum_level) &&
      levelRank(channel.level) > levelRank(contract.evidence.action_response_level) &&
      (!contract.evidence.independent_channel_required || isIndependent(channel)),
  );
  const needed = Math.max(contract.evidence.minimum_channels, contract.evidence.independent_channel_required ? 1 : 0);
  return {
    observed_channels: observed.map((c) => c.id),
    qualifying_channels: qualifying.map((c) => c.id),
    requirement_met: qualifying.length >= needed && qualifying.length > 0,
  };
}

/**
 * The verdict, by precedence: CONTRADICTED, FAILED (a pre-completion rule), VERIFIED,
 * UNVERIFIABLE at the timeout, else PENDING. Unknown conditions never decide anything.
 * Pure: no I/O, and the clock is `bindings.now`.
 */
export function evaluate(loaded: LoadedContract, bindings: Bindings): Evaluation {
  const { contract } = loaded;
  const verified = contract.verified_when.map((c) => check(bindings, c, "verified"));
  const contradicted = contract.contradicted_when.map((c) => check(bindings, c, "contradicted"));
  const rules = contract.rules.map((c) => check(bindings, c, "rule"));
  const evidence = evidenceRequirement(contract, bindings);
  const base = {
    conditions: [...verified, ...contradicted, ...rules],
    evidence,
    contract: { id: contract.id, version: contract.version, declared_hash: loaded.declaredHash, computed_hash: loaded.computedHash },
    evaluated_at: bindings.now,
    classes: [] as string[],
  };

  const contradictions = contract.contradicted_when.filter((_, i) => contradicted[i].status === "holds");
  if (contradictions.length > 0) {
    return {
      ...base,
      verdict: "CONTRADICTED",
      reason: contradictions[0].id,
      reasons: contradictions.map((c) => c.id),
      classes: [...new Set(contradictions.map((c) => c.class))],
      escalate: true,
      explanation: contradictions[0].reason,
    };
  }

  const matchedRules = contract.rules.filter((_, i) => rules[i].status === "holds");
  if (matchedRules.length > 0) {
    const first = matchedRules[0];
    return {
      ...base,
      verdict: first.verdict,
      reason: first.id,
      reasons: matchedRules.filter((r) => r.verdict === first.verdict).map((r) => r.id),
      escalate: true,
      explanation: first.reason,
    };
  }

  if (verified.every((c) => c.status === "holds") && evidence.requirement_met) {
    return {
      ...base,
      verdict: "VERIFIED",
      reason: VERIFIED_REASON,
      reasons: verified.map((c) => c.id),
      escalate: false,
      explanation: contract.summary,
    };
  }

  const unmet = verified.filter((c) => c.status !== "holds").map((c) => c.id);
  const startedAt = parseInstant(bindings.operation.created_at);
  const now = parseInstant(bindings.now);
  if (startedAt !== undefined && now !== undefined && now >= startedAt + contract.timing.timeout_ms) {
    return {
      ...base,
      verdict: "UNVERIFIABLE",
      reason: contract.timing.on_timeout.reason,
      reasons: unmet.length > 0 ? unmet : [contract.timing.on_timeout.reason],
      escalate: contract.timing.on_timeout.escalate,
      explanation: contract.after_timeout,
    };
  }

  return {
    ...base,
    verdict: "PENDING",
    reason: PENDING_REASON,
    reasons: unmet,
    escalate: false,
    explanation: evidence.requirement_met
      ? "Waiting until every condition for VERIFIED holds."
      : `Waiting for evidence at level ${contract.evidence.minimum_level} or above from an independent channel.`,
  };
}
