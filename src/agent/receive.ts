/**
 * What one find_locations call keeps of each business's pages, and what it says about them.
 *
 * Every page passes, in order: the intake bounds (intake.ts), the amenity memory (for
 * list_businesses and labels), and the filters the bridge applies itself (local-filters.ts: a
 * local wall time, amenity labels). Per business it counts what arrived and why Locations were
 * left out, so that the answer can state the label mapping used per business and, when nothing is
 * left, lead with the real cause per business — unreachable, item unknown to it, nothing open at
 * that time, no such amenity, nothing within the radius — before any advice.
 */
import type { Location } from '../domain/location.js';
import type { Message, SearchResponse } from '../domain/requests.js';
import type { ListDefinition } from './arguments.js';
import type { BusinessDirectory, BusinessHandle } from './businesses.js';
import type { BusinessFailure } from './errors.js';
import { Intake } from './intake.js';
import { idsForLabel, openAtWallTime } from './local-filters.js';
import { plain } from './plain.js';
import { formatRadius } from './present.js';

interface Tally {
  intake: Intake;
  messages: Message[];
  /** Locations within the intake bounds. */
  received: number;
  /** Left out: not open at the local wall time. */
  closed: number;
  /** Left out: missing a label. */
  unlabelled: number;
  /** Per label, the amenity ids it matched here. */
  mapping: Map<string, Set<string>>;
  /** Amenity descriptions seen in this call (for "it has: …"), bounded. */
  amenityNames: Set<string>;
}

const MAX_NAMES_LISTED = 12;

export class Receiver {
  readonly #tallies = new Map<string, Tally>();

  constructor(
    private readonly directory: BusinessDirectory,
    private readonly list: ListDefinition,
  ) {}

  #tally(name: string): Tally {
    let tally = this.#tallies.get(name);
    if (tally === undefined) {
      tally = {
        intake: new Intake(name),
        messages: [],
        received: 0,
        closed: 0,
        unlabelled: 0,
        mapping: new Map((this.list.amenityLabels ?? []).map((l) => [l, new Set<string>()])),
        amenityNames: new Set(),
      };
      this.#tallies.set(name, tally);
    }
    return tally;
  }

  /** Bytes of Locations kept from `business` in this call. */
  bytes(business: string): number {
    return this.#tallies.get(business)?.intake.bytes ?? 0;
  }

  /** The page's Locations this call keeps, in order. */
  take(handle: BusinessHandle, page: SearchResponse): Location[] {
    const tally = this.#tally(handle.name);
    const accepted = tally.intake.accept(page.locations);
    this.directory.noteLocations(handle, accepted, this.list.language);
    tally.messages.push(...(page.messages ?? []));
    tally.received += accepted.length;
    const labels = this.list.amenityLabels ?? [];
    const known = labels.length > 0 ? this.directory.knownDescriptions(handle) : new Map<string, Set<string>>();
    const wall = this.list.openAtLocal;
    const kept: Location[] = [];
    for (const location of accepted) {
      for (const amenity of Object.values(location.amenities ?? {})) {
        if (tally.amenityNames.size < 200 && typeof amenity.description === 'string')
          tally.amenityNames.add(plain(amenity.description, 60));
      }
      if (wall !== undefined && !openAtWallTime(location, wall)) {
        tally.closed += 1;
        continue;
      }
      const matched = labels.map((label) => idsForLabel(location, label, known));
      if (matched.some((ids) => ids.length === 0)) {
        tally.unlabelled += 1;
        continue;
      }
      labels.forEach((label, i) => {
        for (const id of matched[i] ?? []) tally.mapping.get(label)?.add(id);
      });
      kept.push(location);
    }
    return kept;
  }

  /** Business messages, what the intake dropped, and the label mapping per business. */
  notes(): string[] {
    const notes: string[] = [];
    for (const [name, tally] of this.#tallies) {
      notes.push(...tally.messages.map((m) => messageNote(name, m)), ...tally.intake.notes());
      if (tally.mapping.size === 0 || tally.received === 0) continue;
      const parts = [...tally.mapping].map(([label, ids]) =>
        ids.size > 0
          ? `"${plain(label, 60)}" = ${[...ids].map((id) => plain(id, 120)).join(' or ')}`
          : `no amenity matches "${plain(label, 60)}" (it has: ${this.#names(tally)})`,
      );
      notes.push(`Amenity labels at ${name}: ${parts.join('; ')}.`);
    }
    return [...new Set(notes)];
  }

  #names(tally: Tally): string {
    const names = [...tally.amenityNames].sort();
    if (names.length === 0) return 'none';
    return names.length > MAX_NAMES_LISTED
      ? `${names.slice(0, MAX_NAMES_LISTED).join(', ')} and ${names.length - MAX_NAMES_LISTED} more`
      : names.join(', ');
  }

  /**
   * Why each business contributed nothing, failures first: one sentence each, for an answer that
   * has no Locations to show.
   */
  emptyCauses(asked: readonly string[], failures: readonly BusinessFailure[]): string[] {
    const causes = failures.map((f) => f.reason);
    const failed = new Set(failures.map((f) => f.business));
    for (const name of asked) {
      if (failed.has(name)) continue;
      const tally = this.#tallies.get(name);
      const unknownItems = (tally?.messages ?? []).filter((m) => m.code === 'item_not_found');
      if (unknownItems.length > 0) {
        causes.push(`${name}: ${unknownItems.map((m) => plain(m.content, 160)).join(' ')}`);
        continue;
      }
      const received = tally?.received ?? 0;
      if (received === 0 && tally !== undefined && tally.intake.dropped > 0) {
        causes.push(...tally.intake.notes());
        continue;
      }
      if (received === 0) {
        const radius = this.list.near !== undefined && this.list.radius !== undefined;
        causes.push(
          radius && this.list.radius !== undefined
            ? `${name}: nothing within ${formatRadius(this.list.radius.meters, this.list.radius.unit)} of the given point matched.`
            : `${name}: nothing matched.`,
        );
        continue;
      }
      const of = `of the ${received} Location${received === 1 ? '' : 's'} it returned`;
      if (tally !== undefined && tally.closed > 0 && tally.unlabelled === 0) {
        causes.push(`${name}: none ${of} is open at ${this.list.openAtLocal ?? ''} local time.`);
      } else if (tally !== undefined && tally.unlabelled > 0 && tally.closed === 0) {
        causes.push(`${name}: none ${of} has ${(this.list.amenityLabels ?? []).join(' and ')} (it has: ${this.#names(tally)}).`);
      } else if (tally !== undefined) {
        causes.push(`${name}: none ${of} is both open at ${this.list.openAtLocal ?? ''} local time and has the amenities asked for.`);
      }
    }
    return causes;
  }
}

/** A business's message as one line of the answer, its words quoted as data (#37 N10). */
export function messageNote(business: string, m: Message): string {
  const code = m.code === undefined ? '' : ` ${plain(m.code, 60)}`;
  return `Note from ${business} (${plain(m.type, 20)}${code}): ${JSON.stringify(plain(m.content, 300))}`;
}
