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
