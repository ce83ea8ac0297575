// Current date and time in an IANA time zone, using only Intl (the zone database Node ships).

export type TimeFormat = 'full' | 'date' | 'time' | 'iso';
export const TIME_FORMATS: readonly TimeFormat[] = ['full', 'date', 'time', 'iso'];

export class TimeZoneError extends Error {
  constructor(zone: string) {
    super(`unknown time zone ${JSON.stringify(zone)} (use an IANA name such as "Europe/Berlin" or "UTC")`);
    this.name = 'TimeZoneError';
  }
}

function partsIn(date: Date, timeZone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, ...options });
  } catch {
    throw new TimeZoneError(timeZone);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(date)) parts[part.type] = part.value;
  return parts;
}

/** `+01:00`-style offset of the zone at that instant. */
function isoOffset(date: Date, timeZone: string): string {
  const name = partsIn(date, timeZone, { timeZoneName: 'longOffset' }).timeZoneName ?? 'GMT';
  const match = /^GMT([+-]\d{2}):?(\d{2})?$/.exec(name);
  if (!match) return 'Z';
  return `${match[1]}:${match[2] ?? '00'}`;
}

export function formatTime(date: Date, timeZone: string, format: TimeFormat): string {
  const p = partsIn(date, timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  const ymd = `${p.year}-${p.month}-${p.day}`;
  const hms = `${p.hour}:${p.minute}:${p.second}`;
  switch (format) {
    case 'date':
      return ymd;
    case 'time':
      return `${hms} ${p.timeZoneName}`;
    case 'iso':
      return `${ymd}T${hms}${isoOffset(date, timeZone)}`;
    case 'full': {
      const long = partsIn(date, timeZone, {
        weekday: 'long',
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      });
      return `${long.weekday}, ${long.month} ${long.day}, ${long.year} at ${long.hour}:${long.minute} ${long.timeZoneName} (${timeZone})`;
    }
  }
}
