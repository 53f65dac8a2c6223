import { useEffect, useState } from "react";
import { Button, Text } from "@shopify/polaris";

/**
 * Copies `text` to the clipboard; the button says "Copied" for a few seconds after (and a screen
 * reader hears it), or that it could not copy when the browser refused.
 */
export function CopyButton({ text, label, accessibilityLabel }: { text: string; label: string; accessibilityLabel?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 4_000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <Button size="slim" onClick={copy} accessibilityLabel={state === "idle" ? accessibilityLabel : undefined}>
        {state === "copied" ? "Copied" : state === "failed" ? "Could not copy" : label}
      </Button>
      <Text as="span" visuallyHidden>
        <span aria-live="polite">{state === "copied" ? "Copied to the clipboard" : state === "failed" ? "The browser did not allow copying" : ""}</span>
      </Text>
    </>
  );
}
