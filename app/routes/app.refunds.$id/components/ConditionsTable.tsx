import type { CSSProperties } from "react";
import { Badge, BlockStack, Box, InlineStack, Text } from "@shopify/polaris";

export interface ConditionRow {
  id: string;
  group: string;
  status: "holds" | "fails" | "unknown";
  meaning: string;
  path: string;
  operator: string;
  expected?: unknown;
  expected_value?: unknown;
  actual?: unknown;
}

/** A condition's result as a person reads it: a contradiction that holds is the bad news, one that fails is not. */
function resultBadge(group: string, status: "holds" | "fails" | "unknown") {
  if (status === "unknown") return <Badge tone="info">unknown</Badge>;
  if (group === "verified") return <Badge tone={status === "holds" ? "success" : "critical"}>{status}</Badge>;
  return status === "holds" ? <Badge tone="critical">holds</Badge> : <Badge>does not hold</Badge>;
}

const show = (value: unknown) => (value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

/** Paths and global ids are read whole: they never break mid-string, the table scrolls instead. */
const whole: CSSProperties = { whiteSpace: "nowrap", overflowWrap: "normal", wordBreak: "normal", fontFamily: "var(--p-font-family-mono)", fontSize: 12 };
const cell: CSSProperties = { overflowWrap: "normal", wordBreak: "normal" };

export function ConditionsTable({ conditions }: { conditions: ConditionRow[] }) {
  if (!conditions.length) {
    return (
      <Box paddingBlock="200">
        <Text as="p" tone="subdued">
          Not evaluated yet: the first check runs a second after the refund was created.
        </Text>
      </Box>
    );
  }
  return (
    <div
      role="region"
      aria-label="Conditions, scrolls sideways"
      tabIndex={0}
      style={{ overflowX: "auto", border: "1px solid var(--p-color-border-secondary)", borderRadius: 8 }}
    >
      <table className="rv-conditions" style={{ tableLayout: "auto" }}>
        <thead>
          <tr>
            <th scope="col" style={{ width: 110 }}>
              Result
            </th>
            <th scope="col">Condition, what it expected and what Shopify showed</th>
          </tr>
        </thead>
        <tbody>
          {conditions.map((c) => (
            <tr key={c.id} data-condition={c.id}>
              <td style={{ ...cell, whiteSpace: "nowrap" }}>{resultBadge(c.group, c.status)}</td>
              <td style={cell}>
                <BlockStack gap="100">
                  <InlineStack gap="150" blockAlign="center">
                    <code style={{ ...whole, fontWeight: 600, fontSize: 13 }}>{c.id}</code>
                    <Text as="span" variant="bodySm" tone="subdued">
                      {c.group === "verified" ? "needed for Verified" : c.group === "contradicted" ? "contradicts" : "rule"}
                    </Text>
                  </InlineStack>
                  <Text as="span" variant="bodySm">
                    {c.meaning}
                  </Text>
                  <dl style={{ display: "grid", gridTemplateColumns: "max-content auto", columnGap: 12, rowGap: 2, margin: 0 }}>
                    <dt>
                      <Text as="span" variant="bodySm" tone="subdued">
                        Expected
                      </Text>
                    </dt>
                    <dd style={{ margin: 0 }}>
                      <code style={whole}>{show(c.expected_value ?? c.expected)}</code>
                    </dd>
                    <dt>
                      <Text as="span" variant="bodySm" tone="subdued">
                        Observed
                      </Text>
                    </dt>
                    <dd style={{ margin: 0 }}>
                      <code style={whole}>{show(c.actual)}</code>
                    </dd>
                    <dt>
                      <Text as="span" variant="bodySm" tone="subdued">
                        Path
                      </Text>
                    </dt>
                    <dd style={{ margin: 0 }}>
                      <code style={{ ...whole, color: "var(--p-color-text-secondary)" }}>{`${c.path} ${c.operator}`}</code>
                    </dd>
                  </dl>
                </BlockStack>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
