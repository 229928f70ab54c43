import { defineConfig } from 'vitest/config';

// Every test runs with TZ=Asia/Kathmandu (UTC+05:45, no DST), so code that reads the system
// time zone instead of a Location's own `timezone` fails loudly. Set here, not in an npm script,
// so `npx vitest` and editor integrations get it too; the forks inherit it.
const TZ = 'Asia/Kathmandu';
process.env['TZ'] = TZ;
// Tests read the server's JSON log lines; a developer's own UCP_LOG_FORMAT=pretty must not change them.
delete process.env['UCP_LOG_FORMAT'];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    env: { TZ },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
