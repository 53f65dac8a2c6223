import { createContext, useContext, useState } from "react";

/** The id of the request the server rendered this page for (entry.server.tsx provides it). */
export const RequestIdContext = createContext<string | null>(null);

/**
 * The request id on an error page: given by the server's render, and read back from the element
 * that shows it when the browser hydrates, so both render the same text. An error met in a
 * client-side navigation has no server-rendered id: then there is none to show.
 */
export function useRequestId(): string | null {
  const rendered = useContext(RequestIdContext);
  const [id] = useState(
    () => rendered ?? (typeof document === "undefined" ? null : (document.querySelector("[data-request-id]")?.getAttribute("data-request-id") ?? null)),
  );
  return id;
}

/** "Reference: 3f2c…": what a person quotes to support, the id every log line of that request carries. */
export function ErrorReference() {
  const id = useRequestId();
  if (!id) return null;
  return (
    <p>
      Reference: <code data-request-id={id}>{id}</code>
    </p>
  );
}
