import { Banner, BlockStack, Text } from "@shopify/polaris";
import type { RiskWarning } from "../../../refunds/risk-warnings";
import type { RefundFormData } from "../types";
import type { RiskConfirmation } from "../hooks/useRiskConfirmation";

/** What puts a refund of this order at risk of paying twice, before anything is sent: each needs "Yes, refund anyway". */
export function RiskBanners({ risks, risk }: { risks: RefundFormData["risks"]; risk: RiskConfirmation }) {
  const warnings: RiskWarning[] = [...risks.warnings, ...(risk.typedPastPayment ? [risk.typedPastPayment] : [])];
  return (
    <>
      {warnings.map((warning) => (
        <div key={warning.code} data-refund-risk={warning.code}>
          <Banner tone="warning" title={warning.title}>
            <BlockStack gap="100">
              {warning.lines.map((line) => (
                <Text as="p" key={line}>
                  {line}
                </Text>
              ))}
            </BlockStack>
          </Banner>
        </div>
      ))}
    </>
  );
}
