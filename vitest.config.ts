import { defineConfig } from 'vitest/config'

// One vitest run covers the Node side (stack, runner, integration suites against the test stack)
// and the web app's unit and component tests (jsdom). `npm test` starts the stack first.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['stack/**/*.test.ts', 'runner/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
