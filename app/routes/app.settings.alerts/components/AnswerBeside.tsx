import { useEffect, useRef, useState } from "react";
import { Text } from "@shopify/polaris";

export interface Answer {
  tone: "success" | "critical";
  text: string;
}

/**
 * The answer to the button it sits beside. The live region is in the page before its words: a
 * screen reader announces what changes inside one, not a region that appears with its text, so the
 * words are put in after it is mounted (the settings form mounts anew on every saved revision).
 * `answering` is the action's answer itself: a new press with the same words is announced again.
 */
export function AnswerBeside({ answer, answering }: { answer: Answer | null; answering: unknown }) {
  const [shown, setShown] = useState<Answer | null>(null);
  const region = useRef<HTMLDivElement>(null);
  const text = answer?.text;
  const tone = answer?.tone;
  useEffect(() => {
    setShown(null);
    if (!text || !tone) return;
    const frame = requestAnimationFrame(() => setShown({ text, tone }));
    // Field errors above push the buttons down: the answer is brought into view, by as little as it takes.
    const seen = requestAnimationFrame(() => requestAnimationFrame(() => region.current?.scrollIntoView({ block: "nearest" })));
    return () => {
      cancelAnimationFrame(frame);
      cancelAnimationFrame(seen);
    };
  }, [text, tone, answering]);
  return (
    <div ref={region} role="status" aria-live="polite" data-answer>
      {shown ? (
        <Text as="p" tone={shown.tone}>
          {shown.text}
        </Text>
      ) : null}
    </div>
  );
}
