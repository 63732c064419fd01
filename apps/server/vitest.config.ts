import { defineConfig } from 'vitest/config';

// API tests run against PGlite always, and also against PostgreSQL when DATABASE_URL is set.
const drivers = process.env.DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];

export default defineConfig({
  test: {
    projects: drivers.map((driver) => ({
      test: {
        name: `server-${driver}`,
        include: ['src/**/*.test.ts'],
        env: { TEST_DB_DRIVER: driver },
        pool: 'forks',
        // One PGlite template per worker, cloned per file: module state must survive between files.
        isolate: false,
        testTimeout: 30_000,
        hookTimeout: 60_000,
      },
    })),
  },
});
