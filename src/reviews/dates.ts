// Calendar dates in the business's time zone: a review written at 23:30 in Phoenix is dated that day there,
// whatever UTC says.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  return format;
}

/** The date (YYYY-MM-DD) an instant falls on in `timeZone` (IANA; UTC without one). */
export function localDate(instant: string | Date, timeZone = 'UTC'): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant;
  // Canadian English writes dates YYYY-MM-DD, so the formatted date is the answer (twice as fast as its parts).
  const formatted = formatOf(timeZone).format(at);
  if (/^\d{4}-\d{2}-\d{2}$/.test(formatted)) return formatted;
  const parts = formatOf(timeZone).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Whether `day` (YYYY-MM-DD) is a date of the calendar (not 2025-02-30). */
export function isCalendarDate(day: string): boolean {
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
}

/**
 * An instant as the platforms write it (RFC 3339 with 0–9 fractional digits; without a zone it is UTC), as an ISO
 * time to the millisecond; undefined when it is none.
 */
export function parseInstant(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})?$/.exec(
    value.trim(),
  );
  if (!match || !isCalendarDate(match[1]!)) return undefined;
  const [, day, time, fraction = '', zone = 'Z'] = match;
  const seconds = time!.length === 5 ? `${time}:00` : time;
  const at = new Date(`${day}T${seconds}.${fraction.padEnd(3, '0').slice(0, 3)}${zone.toUpperCase()}`);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}
