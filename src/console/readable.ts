/**
 * Times and distances as an operator reads them: a local wall-clock time in the Location's own
 * zone, said relative to the day it is now there ("15:35 today", "08:00 tomorrow", "Tue 09:00"),
 * and distances rounded to what matters (whole metres under 1 km, one decimal in km above).
 */
import { DateTime } from 'luxon';

/** "15:35 today", "08:00 tomorrow", "22:00 yesterday", "Tue 09:00" (within a week), "Tue 8 Dec 09:00". */
export function localWhen(epochMs: number, nowMs: number, zone: string): string {
  const at = DateTime.fromMillis(epochMs, { zone }).setLocale('en');
  const now = DateTime.fromMillis(nowMs, { zone }).setLocale('en');
  const time = at.toFormat('HH:mm');
  const days = Math.round(at.startOf('day').diff(now.startOf('day'), 'days').days);
  if (days === 0) return `${time} today`;
  if (days === 1) return `${time} tomorrow`;
  if (days === -1) return `${time} yesterday`;
  if (days > 1 && days < 7) return `${at.toFormat('ccc')} ${time}`;
  return `${at.toFormat('ccc d LLL')} ${time}`;
}

/** "951 m", "1.2 km", "2 km" for 2000 m (no spurious ".0"). */
export function readableMeters(m: number): string {
  if (m < 999.5) return `${Math.round(m)} m`;
  const km = Math.round(m / 100) / 10;
  return `${Number.isInteger(km) ? km.toFixed(0) : km.toFixed(1)} km`;
}
