/**
 * One timestamp format for every screen: the shop's time zone, to the minute, with the zone's
 * short name ("Nov 30, 2026, 9:14 AM EST"). `utcTitle` is the exact instant in UTC, for a hover.
 */
export function formatInstant(iso: string, timeZone: string, locale = "en-US"): string {
  return new Intl.DateTimeFormat(locale, {
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

/**
 * "2026-12-01 09:03:22 -05:00": the instant in the shop's zone with its offset, to the second, for
 * a spreadsheet (it sorts as text, and the offset keeps it one instant in any zone).
 */
export function localTimestamp(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "longOffset",
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : parts.timeZoneName.replace("GMT", "");
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`;
}
