/**
 * Preloaded (`--import`) into the Node processes a test starts from the command line, when the
 * environment names an instant in UCP_TEST_NOW (ISO 8601): the process's clock starts at that
 * instant and runs on from there. What a server says "now" (a schedule's spent exceptions, the
 * demo's coming holidays, `--open-at now`) is then the same on every day the test runs, whatever
 * the machine's clock says. Without UCP_TEST_NOW this module changes nothing.
 */
const pinned = process.env.UCP_TEST_NOW === undefined ? Number.NaN : Date.parse(process.env.UCP_TEST_NOW);

if (!Number.isNaN(pinned)) {
  const RealDate = Date;
  const offset = pinned - RealDate.now();
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
