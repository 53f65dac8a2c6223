import { useState, type ComponentPropsWithoutRef } from "react";
import { useNavigate } from "@remix-run/react";
import { inAppPath } from "./in-app-link";

let hydrated = false;

/** Called once the page has hydrated (root.tsx's first effect): from then on every ServerRendered renders its children. */
export function markHydrated(): void {
  hydrated = true;
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
  return <Adopted key={version} {...div} />;
}

type DivProps = Omit<ComponentPropsWithoutRef<"div">, "dangerouslySetInnerHTML" | "onClick" | "onKeyDown">;

function Adopted({ children, ...div }: DivProps) {
  const [adopt] = useState(() => typeof document !== "undefined" && !hydrated);
  const navigate = useNavigate();
  if (!adopt)
    return (
      <div data-server-rendered="" {...div}>
        {children}
      </div>
    );
  return (
    <div
      data-server-rendered=""
      {...div}
      suppressHydrationWarning
      // Empty on the client: hydration keeps what the server put inside and compares nothing.
      dangerouslySetInnerHTML={{ __html: "" }}
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
