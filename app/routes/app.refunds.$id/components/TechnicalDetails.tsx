import { useState, type ReactNode } from "react";
import { BlockStack, Box, Button, Card, Collapsible, Text } from "@shopify/polaris";
import { utcTitle } from "../../../lib/time/format";
import { ConditionsTable, type ConditionRow } from "./ConditionsTable";
import { KeepWhole } from "./KeepWhole";

export interface TechnicalFacts {
  contract: { id: string; version: string; hash: string; declaredHash: string; summary: string };
  refundGid: string;
  orderGid: string;
  /** How the app learned of the refund (the operation's origin): Shopify's notice, the sweep, the shop's history, the refund form. */
  learned: string;
  /** Where Shopify says it was made, as stored: madeIn, the staff member's user id, the app's name. */
  made: string;
  reasons: string[];
  apiVersions: { channel: string; apiVersion: string }[];
  instants: { label: string; iso: string }[];
  conditions: ConditionRow[];
  /** The timeline in the engine's words: channels, delivery ids, API versions, verdict codes, attempts. */
  steps: { iso: string; text: string }[];
}

const ID = "technical-details";
const mono = { fontFamily: "var(--p-font-family-mono)", whiteSpace: "nowrap", overflowWrap: "normal" } as const;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ overflowX: "auto" }}>
      <Text as="p" variant="bodySm">
        <Text as="span" tone="subdued">{`${label}: `}</Text>
        {children}
      </Text>
    </div>
  );
}

/**
 * For support staff: the contract, its hashes, global ids, paths and exact UTC instants, behind a
 * disclosure. Its content is always in the page (hidden while closed, and printed), so a support
 * person's "find in page" and the server-rendered HTML hold it too.
 */
export function TechnicalDetails({ facts }: { facts: TechnicalFacts }) {
  const [open, setOpen] = useState(false);
  const { contract } = facts;
  return (
    <Card>
      <BlockStack gap="300">
        <Box>
          <Button variant="plain" disclosure={open ? "up" : "down"} ariaExpanded={open} ariaControls={ID} onClick={() => setOpen((o) => !o)}>
            Technical details
          </Button>
        </Box>
        <Collapsible id={ID} open={open} expandOnPrint transition={{ duration: "var(--p-motion-duration-150)", timingFunction: "var(--p-motion-ease-in-out)" }}>
          <BlockStack gap="300">
            <Text as="p" variant="bodySm" tone="subdued">
              For support staff: what the app read from Shopify and how the contract judged it.
            </Text>
            <BlockStack gap="100">
              <Text as="h3" variant="headingSm">
                Decided by
              </Text>
              <Text as="p">{`${contract.id} ${contract.version}`}</Text>
              <Text as="p" variant="bodySm">{`Hash declared by the contract's author: ${contract.declaredHash}; computed by this app: ${contract.hash}.`}</Text>
              {contract.declaredHash !== contract.hash ? (
                <Text as="p" variant="bodySm" tone="subdued">
                  They differ: the author hashed the contract with its own tool, whose exact form this app does not have. The contract's content is what decided
                  this refund.
                </Text>
              ) : null}
              <Text as="p" variant="bodySm" tone="subdued">
                {contract.summary}
              </Text>
            </BlockStack>
            <BlockStack gap="100">
              <Fact label="Refund">
                <span style={mono}>{facts.refundGid}</span>
              </Fact>
              <Fact label="Order">
                <span style={mono}>{facts.orderGid}</span>
              </Fact>
              <Fact label="How the app learned of it">{facts.learned}</Fact>
              <Fact label="Where Shopify says it was made">
                <span style={{ fontFamily: mono.fontFamily }}>{facts.made}</span>
              </Fact>
              {facts.reasons.length ? (
                <Fact label="Reasons">
                  {/* Wraps between codes on a phone (a line that scrolls there is a region a keyboard cannot reach); each code stays whole. */}
                  <span style={{ fontFamily: mono.fontFamily }}>
                    {facts.reasons.map((reason, i) => (
                      <span key={reason}>
                        {i ? ", " : ""}
                        <span style={{ whiteSpace: "nowrap" }}>{reason}</span>
                      </span>
                    ))}
                  </span>
                </Fact>
              ) : null}
              {facts.instants.map((i) => (
                <Fact key={i.label} label={i.label}>
                  <span style={mono}>{utcTitle(i.iso)}</span>
                </Fact>
              ))}
              {facts.apiVersions.map((v) => (
                <Text key={v.channel} as="p" variant="bodySm" tone="subdued">{`${v.channel}: answered by Admin API ${v.apiVersion}`}</Text>
              ))}
            </BlockStack>
            <Text as="h3" variant="headingSm">
              Steps
            </Text>
            <BlockStack gap="050">
              {/* Running text that wraps on a phone (a scrolling line there is a region a keyboard cannot reach); ids stay whole. */}
              {facts.steps.map((step, i) => (
                <Text key={i} as="p" variant="bodySm">
                  <Text as="span" tone="subdued">{`${utcTitle(step.iso)}: `}</Text>
                  <KeepWhole text={step.text} />
                </Text>
              ))}
            </BlockStack>
            <Text as="h3" variant="headingSm">
              Conditions
            </Text>
            <ConditionsTable conditions={facts.conditions} />
          </BlockStack>
        </Collapsible>
      </BlockStack>
    </Card>
  );
}
