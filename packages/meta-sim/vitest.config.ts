import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'meta-sim', include: ['src/**/*.test.ts'], testTimeout: 20_000 },
});
