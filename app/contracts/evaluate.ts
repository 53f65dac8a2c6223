import type { LoadedContract } from "./load";
import { applyOperator, type ConditionStatus } from "./operators";
import { valueAt, valuesAt } from "./paths";
import type { ConditionGroup, PlannedCondition } from "./plan";
import type { Bindings, Contract, ExpectedValue, Operator, VERDICTS } from "./schema";
import { parseInstant } from "./values";

export type Verdict = (typeof VERDICTS)[number];

export interface ConditionResult {
  id: string;
  group: ConditionGroup;
  status: ConditionStatus;
  path: string;
  operator: string;
  expected: ExpectedValue;
  /** The resolved expected value when `expected` is a path. */
  expected_value?: unknown;
  /** For a `[*]` path, the value in every element of the list (null where it does not resolve). */
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

/** `[*]`: holds for some element, fails for every element (so for none), otherwise unknown. */
function anyElement(operator: Operator, values: unknown[], expected: unknown): ConditionStatus {
  let anyUnknown = false;
  for (const value of values) {
    const status = value === null ? "unknown" : applyOperator(operator, value, expected);
    if (status === "holds") return "holds";
    if (status === "unknown") anyUnknown = true;
  }
  return anyUnknown ? "unknown" : "fails";
}

function check(bindings: Bindings, { condition, group, actualPath, expectedPath }: PlannedCondition): ConditionResult {
  const { each } = actualPath;
  const actual = each ? valuesAt(bindings, actualPath, each) : valueAt(bindings, actualPath);
  const expectedValue = expectedPath ? valueAt(bindings, expectedPath) : condition.expected;
  const status: ConditionStatus =
    actual === undefined || expectedValue === undefined
      ? "unknown"
      : each
        ? anyElement(condition.operator, actual as unknown[], expectedValue)
        : applyOperator(condition.operator, actual, expectedValue);
  const result: ConditionResult = {
    id: condition.id,
    group,
    status,
    path: condition.path,
    operator: condition.operator,
    expected: condition.expected,
    actual: actual ?? null,
    evidence: condition.evidence,
  };
  if (expectedPath) result.expected_value = expectedValue ?? null;
  return result;
}

type Decision = Pick<Evaluation, "verdict" | "reason" | "reasons" | "escalate" | "explanation" | "classes">;

interface Findings {
  unmet: string[];
  contradictions: Contract["contradicted_when"];
  matchedRules: Contract["rules"];
  requirementMet: boolean;
}

/**
 * The verdict, by precedence: CONTRADICTED, FAILED (a pre-completion rule), VERIFIED,
 * UNVERIFIABLE at the timeout, else PENDING. Unknown conditions never decide anything.
 */
function decide(contract: Contract, bindings: Bindings, { unmet, contradictions, matchedRules, requirementMet }: Findings): Decision {
  if (contradictions.length > 0) {
    const first = contradictions[0];
    const classes = [...new Set(contradictions.map((c) => c.class))];
    return {
      verdict: "CONTRADICTED",
      reason: first.id,
      reasons: contradictions.map((c) => c.id),
      escalate: true,
      explanation: first.reason,
      classes,
    };
  }

  if (matchedRules.length > 0) {
    const first = matchedRules[0];
    const reasons = matchedRules.filter((r) => r.verdict === first.verdict).map((r) => r.id);
    return {
      verdict: first.verdict,
      reason: first.id,
      reasons,
      escalate: first.escalate ?? true,
      explanation: first.reason,
      classes: [],
    };
  }

  if (unmet.length === 0 && requirementMet) {
    const reasons = contract.verified_when.map((c) => c.id);
    return {
      verdict: "VERIFIED",
      reason: VERIFIED_REASON,
      reasons,
      escalate: false,
      explanation: contract.summary,
      classes: [],
    };
  }

  const startedAt = parseInstant(bindings.operation.created_at);
  const now = parseInstant(bindings.now);
  if (startedAt !== undefined && now !== undefined && now >= startedAt + contract.timing.timeout_ms) {
    const { reason, escalate } = contract.timing.on_timeout;
    return {
      verdict: "UNVERIFIABLE",
      reason,
      reasons: unmet.length > 0 ? unmet : [reason],
      escalate,
      explanation: contract.after_timeout,
      classes: [],
    };
  }

  const explanation = requirementMet
    ? "Waiting until every condition for VERIFIED holds."
    : `Waiting for evidence at level ${contract.evidence.minimum_level} or above from an independent channel.`;
  return {
    verdict: "PENDING",
    reason: PENDING_REASON,
    reasons: unmet,
    escalate: false,
    explanation,
    classes: [],
  };
}

/**
 * Whether a channel's output is evidence about this operation, not just an answer: a `webhook`
 * verifier's output counts once it holds at least one event, an `http` read-back once its `data`
 * holds a record (a body whose fields are all null is Shopify saying it has nothing), any other
 * verifier's once it is there at all.
 */
function producedEvidence(verifier: string, output: unknown): boolean {
  if (output == null) return false;
  if (verifier === "webhook") return typeof (output as { count?: unknown }).count === "number" && (output as { count: number }).count >= 1;
  if (verifier === "http") {
    const data = (output as { data?: unknown }).data;
    return Boolean(data) && typeof data === "object" && Object.values(data as object).some((value) => value != null);
  }
  return true;
}

/**
 * Every condition of the contract against the bindings, the evidence requirement, and the
 * verdict with its reasons. Pure: no I/O, and the clock is `bindings.now`. The contract's plan
 * (paths parsed, channels ranked) was made when it was loaded.
 */
export function evaluate(loaded: LoadedContract, bindings: Bindings): Evaluation {
  const { contract, plan } = loaded;
  const observed: string[] = [];
  const qualifying: string[] = [];
  for (const channel of plan.channels) {
    if (!producedEvidence(channel.verifier, bindings.observed[channel.id])) continue;
    observed.push(channel.id);
    if (channel.qualifies) qualifying.push(channel.id);
  }
  const requirementMet = qualifying.length >= plan.channelsNeeded;

  const conditions: ConditionResult[] = [];
  const findings: Findings = { unmet: [], contradictions: [], matchedRules: [], requirementMet };
  for (const planned of plan.conditions) {
    const result = check(bindings, planned);
    conditions.push(result);
    if (planned.group === "verified") {
      if (result.status !== "holds") findings.unmet.push(result.id);
    } else if (result.status === "holds") {
      if (planned.group === "contradicted") findings.contradictions.push(planned.condition as Contract["contradicted_when"][number]);
      else findings.matchedRules.push(planned.condition as Contract["rules"][number]);
    }
  }

  const { verdict, reason, reasons, escalate, explanation, classes } = decide(contract, bindings, findings);
  return {
    verdict,
    reason,
    reasons,
    escalate,
    explanation,
    classes,
    conditions,
    evidence: { observed_channels: observed, qualifying_channels: qualifying, requirement_met: requirementMet },
    contract: { id: contract.id, version: contract.version, declared_hash: loaded.declaredHash, computed_hash: loaded.computedHash },
    evaluated_at: bindings.now,
  };
}
