import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// Remix's own entry, one frame later. The page the server sent is complete: it is painted first,
// then made interactive. Hydrating at once (the scripts arrive before the first frame on a fast
// network) kept a phone's screen blank for the whole hydration: Lighthouse's mobile LCP charged it
// 1-2 s. A hidden tab gets no frames: it hydrates at once.
if (document.visibilityState === "visible") requestAnimationFrame(() => setTimeout(hydrate, 0));
else hydrate();
