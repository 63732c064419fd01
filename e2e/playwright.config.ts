/**
 * Browser journeys (STYLE.md §10): the built web app served by the real server on a fresh
 * database (PGlite, or PostgreSQL when DATABASE_URL is set), in Debian's Chromium.
 * Run with `npm run test:e2e` from the repository root (builds the web app first), or
 * `npm run test -w e2e` after `npm run build -w apps/web`. DATABASE_URL selects PostgreSQL
 * (E2E_DB=pglite|pg overrides).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './global-setup.ts',
  outputDir: './test-results',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  // In CI one retry, reported as "flaky" in the list output so it is looked into; locally none, so
  // a flaky journey shows at once. A test failing twice still fails.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { outputFolder: './report', open: 'never' }]],
  use: {
    // baseURL comes from the server global-setup starts (see fixtures.ts).
    viewport: { width: 1280, height: 800 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      // Debian's Chromium; never a downloaded browser (TOOLCHAIN.md "Browser tests").
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
