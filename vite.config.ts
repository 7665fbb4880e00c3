/**
 * Vitest 4 projects, one per package, so `npm test` runs every suite and each can pick its own
 * environment (the React tests will use happy-dom; the rest run in Node).
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    passWithNoTests: true,
    projects: [
      {
        test: {
          name: 'runtime',
          root: './packages/runtime',
          include: ['test/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'playground',
          root: './playground',
          include: ['test/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'vite-plugin',
          root: './packages/vite-plugin',
          include: ['test/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
})
