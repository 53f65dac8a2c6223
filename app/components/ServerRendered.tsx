import { useState, type ComponentPropsWithoutRef } from "react";
import { useNavigate } from "@remix-run/react";
import { inAppPath } from "./in-app-link";

/**
 * Each part as the server wrote it, by its mark, read when this module loads (before React
 * hydrates); emptied once the page has hydrated. A part is adopted only while its mark is here:
 * where hydration fails (an extension changed the page's text first), React renders the page anew
 * in place of the server's, and an adopted part then shows this, not nothing; a part whose data
 * changed before the page hydrated has another mark and renders its children.
 */
const written = new Map<string, string>();
if (typeof document !== "undefined")
  for (const part of document.querySelectorAll<HTMLElement>("[data-server-rendered]")) written.set(part.dataset.serverRendered ?? "", part.innerHTML);

/** Called once the page has hydrated (root.tsx's first effect): from then on every ServerRendered renders its children. */
export function markHydrated(): void {
  written.clear();
}

/** A part's mark, the same on the server and in the browser: FNV-1a of its `version` (two parts with one version show the same). */
function markOf(version: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < version.length; i++) hash = Math.imul(hash ^ version.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/**
 * A part of a page that only shows (text, badges, links), kept as the server wrote it when the
 * page hydrates: React adopts the element and never builds the components inside it, which on a
 * phone at 4x CPU was most of the review queue's and the dashboard's hydration (dozens of Polaris
 * components a row, 25 rows). Rendered later (a client navigation) or given a new `version` (its
 * data changed), it renders its children as any component does.
 *
 * A link inside still navigates within the app without a reload: clicks on same-origin links are
 * handed to Remix's navigate, as Polaris's own links would have been. Nothing inside may need
 * JavaScript to work until the part renders again: no buttons, fields or popovers.
 */
export function ServerRendered({ version, ...div }: { version: string } & DivProps) {
  return <Adopted key={version} mark={markOf(version)} {...div} />;
}

type DivProps = Omit<ComponentPropsWithoutRef<"div">, "dangerouslySetInnerHTML" | "onClick" | "onKeyDown">;

function Adopted({ children, mark, ...div }: DivProps & { mark: string }) {
  // What the server wrote for this part, kept for its life: null renders its children.
  const [adopted] = useState(() => written.get(mark) ?? null);
  const navigate = useNavigate();
  if (adopted === null)
    return (
      <div data-server-rendered={mark} {...div}>
        {children}
      </div>
    );
  return (
    <div
      data-server-rendered={mark}
      {...div}
      suppressHydrationWarning
      // Hydration keeps what the server put inside and compares nothing; a page rendered anew shows what the server had written.
      dangerouslySetInnerHTML={{ __html: adopted }}
      onClick={(event) => {
        const link = (event.target as Element).closest("a");
        if (!link) return;
        // A link's click is the link's, not also a clickable row's around it (as the parts' own links do).
        event.stopPropagation();
        const path = inAppPath(link, event, window.location.origin);
        if (path === null) return;
        event.preventDefault();
        navigate(path);
      }}
      onKeyDown={(event) => {
        if ((event.target as Element).closest("a")) event.stopPropagation();
      }}
    />
  );
}
