import { parsePath, type ParsedPath } from "./paths";
import { EVIDENCE_LEVELS, isPath, type Contract } from "./schema";

export type ConditionGroup = "verified" | "contradicted" | "rule";
export type AnyCondition = Contract["verified_when"][number] | Contract["contradicted_when"][number] | Contract["rules"][number];

export interface PlannedCondition {
  condition: AnyCondition;
  group: ConditionGroup;
  actualPath: ParsedPath;
  /** Set when the expected side is a path rather than a literal. */
  expectedPath: ParsedPath | undefined;
}

/**
 * What evaluation needs from a contract, worked out once when the contract is loaded: parsed
 * paths, which expected sides are paths, and which channels can satisfy the evidence
 * requirement. Evaluation then does no parsing of the contract at all.
 */
export interface EvaluationPlan {
  /** Verified conditions, then contradictions, then rules: the order of an evaluation's `conditions`. */
  conditions: PlannedCondition[];
  channels: { id: string; verifier: string; qualifies: boolean }[];
  channelsNeeded: number;
}

const levelRank = (level: string) => EVIDENCE_LEVELS.indexOf(level as (typeof EVIDENCE_LEVELS)[number]);

function plan(condition: AnyCondition, group: ConditionGroup): PlannedCondition {
  const expectedPath = isPath(condition.expected) ? parsePath(condition.expected) : undefined;
  return { condition, group, actualPath: parsePath(condition.path), expectedPath };
}

export function planEvaluation(contract: Contract): EvaluationPlan {
  const { evidence } = contract;
  return {
    conditions: [
      ...contract.verified_when.map((c) => plan(c, "verified")),
      ...contract.contradicted_when.map((c) => plan(c, "contradicted")),
      ...contract.rules.map((c) => plan(c, "rule")),
    ],
    // A channel counts when it reaches the minimum level, is above the action's own response,
    // and is independent if the contract asks for independence.
    channels: contract.channels.map((channel) => ({
      id: channel.id,
      verifier: channel.verifier,
      qualifies:
        levelRank(channel.level) >= levelRank(evidence.minimum_level) &&
        levelRank(channel.level) > levelRank(evidence.action_response_level) &&
        (!evidence.independent_channel_required || channel.independence !== "none"),
    })),
    channelsNeeded: Math.max(evidence.minimum_channels, evidence.independent_channel_required ? 1 : 0, 1),
  };
}
