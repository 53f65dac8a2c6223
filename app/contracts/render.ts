import type { LoadedContract } from "./load";
import { attemptSchedule } from "./timing";

const code = (value: unknown) => `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;
const row = (cells: unknown[]) => `| ${cells.map((cell) => String(cell).replace(/\|/g, "\\|")).join(" | ")} |`;
const table = (header: string[], rows: unknown[][]) =>
  [row(header), row(header.map(() => "---")), ...rows.map(row)].join("\n");

function idempotency(value: LoadedContract["contract"]["subject"]["idempotency"]): string {
  if (typeof value === "string") return value;
  return `${code(value.directive)} on ${code(value.operation)}, required from API version ${code(value.required_from)}; the key is ${value.key}`;
}

/** The contract as a document for people, generated from the data so the two cannot drift apart. */
export function renderContract({ contract, computedHash }: LoadedContract): string {
  const t = contract.timing;
  const schedule = attemptSchedule(t);
  const sections = [
    `# ${contract.title}`,
    contract.summary,
    "## Contract identity",
    table(
      ["Fact", "Value"],
      [
        ["Contract id", code(contract.id)],
        ["Version", code(contract.version)],
        ["Hash (declared)", code(contract.hash)],
        ["Hash (computed)", code(computedHash)],
        ["Completion level", code(contract.completion_level)],
        ["Certification", contract.certification],
        ["Skill", `${contract.skill.name} ${contract.skill.version}`],
        ["Valid for provider API versions", contract.provider_api_versions.map(code).join(", ")],
      ],
    ),
    "## What is the intent?",
    contract.intent,
    "## What is the subject and the action?",
    table(
      ["Member", "Value"],
      [
        ["Subject type", code(contract.subject.type)],
        ["Subject identity", `${contract.subject.identity.name} = ${code(contract.subject.identity.path)}`],
        ["Canonical effect", code(contract.subject.canonical_effect)],
        ["Provider operation", code(contract.subject.provider_operation)],
        ["Idempotency", idempotency(contract.subject.idempotency)],
      ],
    ),
    "## How does the evidence correlate with this operation?",
    table(
      ["Strategy", "Assurance", "Keys", "Required"],
      contract.correlation.map((c) => [
        code(c.strategy),
        c.assurance,
        c.keys.map((k) => `${k.name} from ${code(k.path)}`).join("; "),
        c.required ? "yes" : "no",
      ]),
    ),
    "## Which evidence does the contract require?",
    `Minimum evidence level ${contract.evidence.minimum_level}. ` +
      `${contract.evidence.independent_channel_required ? "An independent channel is required." : "No independent channel is required."} ` +
      `Minimum channels: ${contract.evidence.minimum_channels}. The action response is ${contract.evidence.action_response_level}.`,
    table(
      ["Channel", "Level", "Independence", "Verifier", "Description"],
      contract.channels.map((c) => [code(c.id), c.level, c.independence, code(c.verifier), c.description]),
    ),
    "## Which conditions must all hold for VERIFIED?",
    table(
      ["Condition", "Meaning", "Path", "Operator", "Expected", "Evidence"],
      contract.verified_when.map((c) => [code(c.id), c.meaning, code(c.path), code(c.operator), code(c.expected), code(c.evidence)]),
    ),
    "## Which conditions give CONTRADICTED?",
    table(
      ["Condition", "Class", "Reason", "Path", "Operator", "Expected", "Evidence"],
      contract.contradicted_when.map((c) => [code(c.id), c.class, c.reason, code(c.path), code(c.operator), code(c.expected), code(c.evidence)]),
    ),
    "## Which observed states map to a verdict before completion?",
    table(
      ["Rule", "Match", "Verdict", "Reason", "Evidence"],
      contract.rules.map((r) => [code(r.id), `${code(r.path)} ${r.operator} ${code(r.expected)}`, `${r.verdict}${r.escalate === false ? ", not escalated" : ""}`, r.reason, code(r.evidence)]),
    ),
    "## How long does the runtime observe?",
    table(
      ["Timing member", "Value"],
      [
        ["Initial delay", `${t.initial_delay_ms} ms`],
        ["Poll interval", `${t.poll_interval_ms} ms`],
        ["Backoff", t.backoff.kind === "exponential" ? `exponential factor ${t.backoff.factor}, max ${t.backoff.max_ms} ms` : `fixed, max ${t.backoff.max_ms} ms`],
        ["Maximum attempts", t.max_attempts],
        ["Timeout", `${t.timeout_ms} ms`],
        ["Stale read window", `${t.stale_read_window_ms} ms`],
        ["On timeout", `${t.on_timeout.verdict} (${code(t.on_timeout.reason)})${t.on_timeout.escalate ? ", escalated to a person" : ""}`],
      ],
    ),
    `Planned attempts (ms after the operation starts): ${schedule.join(", ")}.`,
    "## Where do these rules come from?",
    contract.sources.map((s) => `- ${s.ref}: ${s.source}, retrieved ${s.retrieved}`).join("\n"),
    `## Can ${contract.id} return VERIFIED from the action response alone?`,
    contract.action_response_alone.explanation,
    "## What happens after the timeout?",
    contract.after_timeout,
  ];
  return `${sections.join("\n\n")}\n`;
}
