import { utcTitle } from "../../../lib/time/format";

/**
 * An instant in the shop's time zone (formatted by the loader, so server and browser render the
 * same text), with the exact UTC instant on hover.
 */
export function Instant({ iso, times }: { iso: string; times: Record<string, string> }) {
  return (
    <time dateTime={iso} title={utcTitle(iso)}>
      {times[iso] ?? utcTitle(iso)}
    </time>
  );
}
