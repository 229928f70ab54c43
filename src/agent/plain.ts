/**
 * Business text written into the bridge's answer as data (#37 N10). A business controls the
 * names, addresses, amenity descriptions, exception titles and messages the model reads; with a
 * line break it could start a line that looks like the bridge's own ("Not included: …", "More
 * results: call find_locations with …"), and with terminal escapes it could hide or rewrite text
 * for a person reading a log. So every business string is made one plain line before it is put
 * into text: ANSI escape sequences removed, line breaks and other control characters (C0, C1,
 * DEL, the Unicode line/paragraph separators, bidirectional overrides) turned into a single
 * space, and the length bounded. `structuredContent` keeps the business's values unchanged:
 * there they are JSON strings, data by construction.
 */

/** CSI/OSC and other escape sequences a terminal would act on. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+/g;

/** Longest business string shown in text, in characters (structuredContent has it whole). */
export const MAX_PLAIN_CHARS = 200;

/** `text` as one plain line of at most `max` characters. */
export function plain(text: string, max = MAX_PLAIN_CHARS): string {
  const line = text.replace(ANSI, '').replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
