import { defineConfig } from 'vitest/config';

// Tests run with TZ=Asia/Kathmandu (set by `npm test`) so that any code reading the
// system time zone instead of a Location's own `timezone` fails loudly.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
