/**
 * The playground's zone-aware time picker: a local wall-clock reading in an IANA zone becomes the
 * RFC 3339 instant (with that zone's offset) that `filters.hours.open_at` needs, with a note when
 * the reading falls in a daylight-saving gap (does not exist) or fold (happens twice).
 */
import { DateTime } from 'luxon';
import { ConfigError } from '../errors.js';
import { zoneProblem } from '../domain/hours-zone.js';

export interface LocalInstant {
  instant: string;
  note: string | null;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

export function localInstant(local: string, zone: string): LocalInstant {
  const problem = zoneProblem(zone);
  if (problem !== null) throw new ConfigError(problem);
  const m = LOCAL.exec(local);
  if (m === null) throw new ConfigError(`local must be YYYY-MM-DDTHH:MM (a wall-clock reading); got ${JSON.stringify(local)}`);
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const dt = DateTime.fromObject({ year: y, month: mo, day: d, hour: h, minute: mi }, { zone });
  if (!dt.isValid) throw new ConfigError(`${local} is not a calendar date and time`);
  let note: string | null = null;
  if (dt.hour !== h || dt.minute !== mi) {
    note = `${local} does not exist in ${zone} (the clocks jump forward); the instant shown is the one Luxon maps it to, ${dt.toFormat('HH:mm')} local.`;
  } else {
    // A fold: the same reading an hour earlier or later (in real time) shows the same local time.
    for (const [other, which] of [
      [dt.minus({ hours: 1 }), 'later'],
      [dt.plus({ hours: 1 }), 'earlier'],
    ] as const) {
      if (other.hour === dt.hour && other.minute === dt.minute) {
        note = `${local} happens twice in ${zone} (the clocks go back); this is the ${which} of the two (offset ${dt.toFormat('ZZ')}).`;
      }
    }
  }
  const iso = dt.toISO({ suppressMilliseconds: true });
  if (iso === null) throw new ConfigError(`${local} in ${zone} cannot be written as an instant`);
  return { instant: iso, note };
}
