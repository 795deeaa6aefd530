/**
 * Ages in the words a model repeats correctly: "23 days ago", never a bare timestamp it would
 * present as current. A timestamp later than this server's clock says so instead of "in 3 hours".
 */

const MINUTE = 60;
const HOUR = 3_600;
const DAY = 86_400;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** "just now", "5 minutes ago", "3 hours ago", "23 days ago"; "age unknown" for null. */
export function describeAge(seconds: number | null): string {
  if (seconds === null) return 'age unknown';
  if (seconds < -MINUTE) return `${span(-seconds)} later than this server's clock (a clock is off)`;
  if (seconds < MINUTE) return 'just now';
  return `${span(seconds)} ago`;
}

/** A length of time, in the largest unit that keeps it a whole number people use: minutes, hours, days. */
function span(seconds: number): string {
  if (seconds < HOUR) return plural(Math.max(1, Math.floor(seconds / MINUTE)), 'minute');
  if (seconds < 2 * DAY) return plural(Math.floor(seconds / HOUR), 'hour');
  return plural(Math.floor(seconds / DAY), 'day');
}

/** An age against a stated cadence: "weekly cadence: current" or "weekly cadence: 16 days past due, treat as stale". */
export function describeCadence(cadence: string, cadenceS: number | undefined, ageS: number | null): string {
  const named = `${cadence} cadence`;
  if (cadenceS === undefined) return `${named} (not a cadence this server reads; judge by the age)`;
  if (ageS === null) return `${named}; the age is unknown, so whether it is current is too`;
  if (ageS <= cadenceS) return `${named}: current`;
  return `${named}: ${span(ageS - cadenceS)} past due, treat as stale`;
}
