/**
 * How old a timestamp the API sent is when retrieved, and whether that is within the cadence it
 * states. A date alone is the start of its day, and a legacy timestamp with no timezone
 * (`2026-11-02 06:00:00`) is read as UTC, the API's own zone, and the result says so.
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const NO_ZONE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

/** The moment `value` names, in ms since the epoch, or undefined when it is no timestamp. */
function timestampMs(value: string | null | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const noZone = NO_ZONE.exec(text);
  const iso = DATE_ONLY.test(text) ? `${text}T00:00:00Z` : noZone ? `${noZone[1]}T${noZone[2]}Z` : text;
  // Date.parse accepts much that is no ISO timestamp ("1", "Nov 2"); ask for a year first.
  if (!/^\d{4}-\d{2}-\d{2}/.test(iso)) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Seconds from `value` to `at` (negative when `value` is later: a clock ahead of ours), or null when
 * it names no moment.
 */
export function ageSeconds(value: string | null | undefined, at: number): number | null {
  const ms = timestampMs(value);
  return ms === undefined ? null : Math.round((at - ms) / 1000);
}

const CADENCES: Record<string, number> = {
  hourly: 3_600,
  daily: 86_400,
  nightly: 86_400,
  weekly: 7 * 86_400,
  biweekly: 14 * 86_400,
  fortnightly: 14 * 86_400,
  monthly: 31 * 86_400,
  quarterly: 92 * 86_400,
  yearly: 366 * 86_400,
  annually: 366 * 86_400,
};

/** A stated cadence in seconds (`weekly`, `daily`, `every 6 hours`), or undefined when it is not one we read. */
export function cadenceSeconds(cadence: unknown): number | undefined {
  if (typeof cadence !== 'string') return undefined;
  const text = cadence.trim().toLowerCase();
  if (Object.hasOwn(CADENCES, text)) return CADENCES[text];
  const every = /^every (\d{1,4}) (minute|hour|day|week)s?$/.exec(text);
  if (!every) return undefined;
  const unit = { minute: 60, hour: 3_600, day: 86_400, week: 7 * 86_400 }[
    every[2] as 'minute' | 'hour' | 'day' | 'week'
  ];
  return Number(every[1]) * unit;
}
