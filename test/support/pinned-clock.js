/**
 * Preloaded (`--import`) into the Node processes a test starts from the command line, when the
 * environment names an instant in UCP_TEST_NOW (ISO 8601): the process's clock starts at that
 * instant and runs on from there. What a server says "now" (a schedule's spent exceptions, the
 * demo's coming holidays, `--open-at now`) is then the same on every day the test runs, whatever
 * the machine's clock says.
 *
 * UCP_TEST_SHIFT_DAYS=<n> instead moves the clock n days from the machine's, to check that tests
 * pass on another day, e.g. a year ahead:
 *   UCP_TEST_SHIFT_DAYS=365 NODE_OPTIONS=--import=./test/support/pinned-clock.js npx vitest run test/scripts/demo-data.test.ts
 * Without either variable this module changes nothing.
 */
const RealDate = Date;
const pinned = process.env.UCP_TEST_NOW === undefined ? Number.NaN : RealDate.parse(process.env.UCP_TEST_NOW);
const shiftDays = Number(process.env.UCP_TEST_SHIFT_DAYS ?? 'NaN');
const offset = !Number.isNaN(pinned) ? pinned - RealDate.now() : Number.isFinite(shiftDays) ? shiftDays * 86_400_000 : Number.NaN;

if (!Number.isNaN(offset)) {
  const now = () => RealDate.now() + offset;

  class PinnedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }

    static now() {
      return now();
    }
  }

  // `Date()` called as a function gives the current time as a string, like the real one.
  globalThis.Date = new Proxy(PinnedDate, {
    apply: () => new RealDate(now()).toString(),
  });
}
