import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { Badge, BlockStack, Box, InlineStack, Text } from "@shopify/polaris";
import { KeepWhole } from "./KeepWhole";
// Inline, not a stylesheet of its own: a second render-blocking request cost a phone's first paint
// about 300 ms for under 1 KB, and the table sits under Technical details, below the first screen.
import conditionsCss from "./conditions.css?inline";

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
/** A value (an amount, a list, an object) wraps where it must; the ids and paths in it stay whole. */
const value: CSSProperties = { overflowWrap: "anywhere", fontFamily: "var(--p-font-family-mono)", fontSize: 12 };
const cell: CSSProperties = { overflowWrap: "normal", wordBreak: "normal" };

/**
 * Whether the table is wider than its box, and which edges have more to scroll to: a contract path
 * (up to 85 characters, kept whole) does not fit a phone, and a table cut at the edge with no sign
 * reads as complete (issue 26).
 */
function useSidewaysOverflow() {
  const ref = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState({ wider: false, moreLeft: false, moreRight: false });
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => {
      // The prose wraps at the width one sees, so that only the paths run on past it (conditions.css).
      box.style.setProperty("--rv-visible-width", `${box.clientWidth}px`);
      const wider = box.scrollWidth > box.clientWidth + 1;
      const next = { wider, moreLeft: wider && box.scrollLeft > 1, moreRight: wider && box.scrollLeft + box.clientWidth < box.scrollWidth - 1 };
      setOverflow((last) => (last.wider === next.wider && last.moreLeft === next.moreLeft && last.moreRight === next.moreRight ? last : next));
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(box);
    if (box.firstElementChild) resized.observe(box.firstElementChild);
    box.addEventListener("scroll", measure, { passive: true });
    return () => {
      resized.disconnect();
      box.removeEventListener("scroll", measure);
    };
  }, []);
  return { ref, ...overflow };
}

/** One line of a condition's description list: its name, subdued, and what it holds. */
function Term({ name, children }: { name: string; children: ReactNode }) {
  return (
    <>
      <dt>
        <Text as="span" variant="bodySm" tone="subdued">
          {name}
        </Text>
      </dt>
      <dd style={{ margin: 0 }}>{children}</dd>
    </>
  );
}

const CAPTION_ID = "conditions-scroll-caption";

export function ConditionsTable({ conditions }: { conditions: ConditionRow[] }) {
  const { ref, wider, moreLeft, moreRight } = useSidewaysOverflow();
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
    <BlockStack gap="100">
      <style dangerouslySetInnerHTML={{ __html: conditionsCss }} />
      {wider ? (
        <Text as="p" variant="bodySm" tone="subdued" id={CAPTION_ID}>
          Scroll sideways for more <span aria-hidden="true">→</span>
        </Text>
      ) : null}
      <div className="rv-conditions-frame" data-more-left={moreLeft || undefined} data-more-right={moreRight || undefined}>
        <div ref={ref} role="region" aria-label="Conditions" aria-describedby={wider ? CAPTION_ID : undefined} tabIndex={0} className="rv-conditions-scroller">
          <table className="rv-conditions" style={{ tableLayout: "auto" }}>
            <thead>
              <tr>
                <th scope="col" className="rv-result-column" style={{ width: 110 }}>
                  Result
                </th>
                <th scope="col">Condition, what it expected and what Shopify showed</th>
              </tr>
            </thead>
            <tbody>
              {conditions.map((c) => (
                <tr key={c.id} data-condition={c.id}>
                  <td className="rv-result-column" style={{ ...cell, whiteSpace: "nowrap" }}>
                    {resultBadge(c.group, c.status)}
                  </td>
                  <td style={cell}>
                    <BlockStack gap="100">
                      <div className="rv-within-view">
                        <InlineStack gap="150" blockAlign="center">
                          {/* On a phone the result column gives its width to the paths: the result shows here instead. */}
                          <span className="rv-result-inline">{resultBadge(c.group, c.status)}</span>
                          <code style={{ ...whole, fontWeight: 600, fontSize: 13 }}>{c.id}</code>
                          <Text as="span" variant="bodySm" tone="subdued">
                            {c.group === "verified" ? "needed for Verified" : c.group === "contradicted" ? "contradicts" : "rule"}
                          </Text>
                        </InlineStack>
                      </div>
                      <div className="rv-within-view">
                        <Text as="span" variant="bodySm">
                          {c.meaning}
                        </Text>
                      </div>
                      <dl style={{ display: "grid", gridTemplateColumns: "max-content auto", columnGap: 12, rowGap: 2, margin: 0 }}>
                        <Term name="Expected">
                          <code style={value}>
                            <KeepWhole text={show(c.expected_value ?? c.expected)} />
                          </code>
                        </Term>
                        <Term name="Observed">
                          <code style={value}>
                            <KeepWhole text={show(c.actual)} />
                          </code>
                        </Term>
                        <Term name="Path">
                          {/* The path whole; the operator may go to the next line. */}
                          <code style={{ ...whole, color: "var(--p-color-text-secondary)" }}>{c.path}</code>{" "}
                          <code style={{ ...whole, color: "var(--p-color-text-secondary)" }}>{c.operator}</code>
                        </Term>
                      </dl>
                    </BlockStack>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </BlockStack>
  );
}
