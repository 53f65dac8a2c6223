import { dateTimeFormat } from "../intl/formats";

/**
 * One timestamp format for every screen: the shop's time zone, to the minute, with the zone's
 * short name ("Nov 30, 2026, 9:14 AM EST"). `utcTitle` is the exact instant in UTC, for a hover.
 */
export function formatInstant(iso: string, timeZone: string, locale = "en-US"): string {
  return dateTimeFormat(locale, {
    timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}

export function utcTitle(iso: string): string {
  return `${iso.slice(0, 19).replace("T", " ")} UTC`;
}

/** How far a time zone is ahead of UTC at an instant, in ms. */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    dateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour) % 24, Number(parts.minute), Number(parts.second));
  return local - Math.floor(instant / 1000) * 1000;
}

/**
 * "2026-12-01 09:03:22 -05:00": the instant in the shop's zone with its offset, to the second, for
 * a spreadsheet (it sorts as text, and the offset keeps it one instant in any zone).
 */
export function localTimestamp(iso: string, timeZone: string): string {
  const seconds = Math.floor(Date.parse(iso) / 1000) * 1000;
  const offset = zoneOffsetMs(seconds, timeZone);
  const minutes = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? "-" : "+";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${new Date(seconds + offset).toISOString().slice(0, 19).replace("T", " ")} ${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
