import { buildDefines } from './build-defines.js';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: buildDefines(),
  test: {
    // The code waits with node:timers/promises; fake timers must reach it too.
    fakeTimers: { fakeNodeBuiltins: true },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        // End-to-end tests spawn the built binary (npm test builds first) and talk real protocols.
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 30_000 },
      },
      {
        extends: true,
        // The packed package installed fresh, on every Node line engines admits: `npm run test:installed`.
        test: { name: 'installed', include: ['test/installed/**/*.test.ts'], environment: 'node', testTimeout: 180_000, hookTimeout: 600_000 },
      },
    ],
  },
});
