import { dateTimeFormat } from "../intl/formats";
import { zoneOffsetMs } from "./format";

/** The calendar day of an instant in a time zone, as YYYY-MM-DD. */
export function dayIn(instant: Date, timeZone: string): string {
  return dateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

/** The day `days` after (before, when negative) a YYYY-MM-DD day: calendar arithmetic, no time zone. */
export const addDays = (dayText: string, days: number) => new Date(Date.parse(dayText) + days * 86_400_000).toISOString().slice(0, 10);

/** The instant a day starts in a time zone (its local midnight). */
export function startOfDay(dayText: string, timeZone: string): Date {
  const utcMidnight = Date.parse(`${dayText}T00:00:00Z`);
  let start = utcMidnight - zoneOffsetMs(utcMidnight, timeZone);
  start = utcMidnight - zoneOffsetMs(start, timeZone);
  // Where clocks jump at midnight itself (Santiago, Havana), the day has no 00:00: it starts at its first instant.
  for (let step = 0; step < 8 && dayIn(new Date(start), timeZone) !== dayText; step++) start += 15 * 60_000;
  return new Date(start);
}
