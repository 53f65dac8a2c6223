import { useEffect, useRef, useState } from "react";
import { Button, Text } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { PAYMENTS_SCOPES } from "../../../shops/payments-scopes";

type Shopify = ReturnType<typeof useAppBridge>;
type Outcome = "granted" | "declined" | "elsewhere";

const OUTCOMES: Record<Outcome, { text: string; tone?: "success" }> = {
  // Shopify sends app/scopes_update, which starts the settlement pass: no reload needed.
  granted: { text: "Granted: the app starts following this refund's money within a minute.", tone: "success" },
  declined: { text: "Not granted: the Money section stays as it is." },
  elsewhere: { text: "Grant it in Shopify admin: Settings › Apps › Refund Verifier." },
};

/** App Bridge, or null where its script did not load (useAppBridge throws then). */
function useShopify(): Shopify | null {
  try {
    return useAppBridge();
  } catch {
    return null;
  }
}

/**
 * Asks Shopify for the optional payments scopes through App Bridge's Scopes API
 * (`shopify.scopes.request` opens Shopify's permission modal and resolves
 * `{ result: "granted-all" | "declined-all", detail }`). An App Bridge without the API, or one that
 * fails, gets the place in admin to grant them instead: never a blank, never a crash.
 */
async function requestScopes(shopify: Shopify | null): Promise<Outcome> {
  try {
    if (typeof shopify?.scopes?.request !== "function") return "elsewhere";
    const answer = await shopify.scopes.request([...PAYMENTS_SCOPES]);
    return answer?.result === "granted-all" ? "granted" : answer?.result === "declined-all" ? "declined" : "elsewhere";
  } catch {
    return "elsewhere";
  }
}

/** The Money section's "Allow reading payouts" button, then the merchant's answer in its place. */
export function GrantPaymentsScopes() {
  const shopify = useShopify();
  const [state, setState] = useState<"idle" | "asking" | Outcome>("idle");
  const asked = useRef(false);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const outcome = state === "idle" || state === "asking" ? null : OUTCOMES[state];
  // The button goes once answered: focus moves to the answer rather than to the page's start.
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);
  const ask = async () => {
    if (asked.current) return;
    asked.current = true;
    setState("asking");
    setState(await requestScopes(shopify));
  };
  return (
    // One of the two shows at a time; the live region is there from the start, so the answer is heard.
    <div>
      {outcome ? null : (
        <Button onClick={ask} loading={state === "asking"}>
          Allow reading payouts
        </Button>
      )}
      <div aria-live="polite" data-grant-outcome="">
        {outcome ? (
          <div ref={outcomeRef} tabIndex={-1} style={{ outline: "none" }}>
            <Text as="p" tone={outcome.tone}>
              {outcome.text}
            </Text>
          </div>
        ) : null}
      </div>
    </div>
  );
}
