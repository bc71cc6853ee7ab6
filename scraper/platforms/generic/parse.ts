/** Pure readers of the short texts a report page shows (durations, counts, statuses). */

const UNIT_MS: Record<string, number> = {
  ms: 1,
  msec: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
};

/**
 * Milliseconds of a shown duration: "123 ms", "1.5s", "1m 2s", "00:01:02.5", or a bare number
 * in `bareUnit`. null when the text is not a duration, so the caller can warn.
 */
export function parseDuration(text: string, bareUnit: 'ms' | 's'): number | null {
  const value = text.trim().toLowerCase().replace(/,/g, '.');
  if (/^\d+(\.\d+)?$/.test(value)) return round(Number(value) * (bareUnit === 'ms' ? 1 : 1000));
  const clock = value.match(/^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/);
  if (clock) return round((Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3])) * 1000);
  return sumOfUnits(value);
}

function sumOfUnits(value: string): number | null {
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('').length < value.replace(/\s+/g, '').length) {
    return null;
  }
  let total = 0;
  for (const [, amount, unit] of parts) {
    const factor = unit === undefined ? undefined : UNIT_MS[unit];
    if (factor === undefined) return null;
    total += Number(amount) * factor;
  }
  return round(total);
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** First integer in a text such as "3 failed" or "Failures: 12"; null when there is none. */
export function parseCount(text: string): number | null {
  const match = text.match(/\d+/);
  return match ? Number(match[0]) : null;
}

/** Lower-cased shown status, mapped through the platform's status map. */
export function normaliseStatus(text: string, statusMap: Record<string, string>): string {
  const shown = text.trim().toLowerCase();
  return statusMap[shown] ?? shown;
}
