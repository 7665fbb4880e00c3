/**
 * Vitest 4 projects, one per package, so `npm test` runs every suite and each can pick its own
 * environment (the React tests will use happy-dom; the rest run in Node).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * Tests import the workspace packages from their TypeScript sources (each export's
 * "@mcp-bridge/source" target), so they never test a stale build. Aliases, not a resolve
 * condition: Vitest hands its conditions to Node as well, and what Node loads itself — the CLI,
 * an app's vite.config, spawned processes — must get the built dist/ (`npm test` builds it).
 */
function sourceAliases(pkg: string) {
  const dir = fileURLToPath(new URL(`./packages/${pkg}/`, import.meta.url))
  const { name, exports } = JSON.parse(readFileSync(`${dir}package.json`, 'utf8')) as { name: string; exports: Record<string, Record<string, string>> }
  return Object.entries(exports).map(([subpath, targets]) => ({
    find: new RegExp(`^${`${name}${subpath.slice(1)}`.replace(/[/.]/g, '\\$&')}$`),
    replacement: dir + targets['@mcp-bridge/source']!.slice(2),
  }))
}

export default defineConfig({
  resolve: { alias: [...sourceAliases('runtime'), ...sourceAliases('vite-plugin')] },
  test: {
    passWithNoTests: true,
    // CI is a busy 2-core machine: many tests start servers, builds or processes. Tests with longer
    // work set their own bound; none relies on Vitest's 5 s default.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'runtime',
          root: './packages/runtime',
          include: ['test/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          name: 'playground',
          root: './playground',
          include: ['test/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          // The docs site: built (API reference and VitePress), then every page opened in Chromium.
          name: 'docs',
          root: './docs',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // A scratch app outside the workspace, installed from the packed packages.
          name: 'adoption',
          root: './adoption',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The official MCP conformance suite against an app written with the public API.
          name: 'conformance',
          root: './conformance',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'vite-plugin',
          root: './packages/vite-plugin',
          include: ['test/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
})
