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

/**
 * Package tests that start processes, servers (redis-server), real builds or browsers. Everything
 * else under packages/*\/test is a unit test: the `fast` project, `npm run test:fast` (under a
 * minute here, for the edit loop). `npm test` runs every project.
 */
const SLOW: Record<'runtime' | 'vite-plugin', string[]> = {
  runtime: [
    'test/calls/crash-trial.test.ts', // kills and restarts servers
    'test/calls/call-store.contract.test.ts', // redis-server, a Redis Cluster
    'test/calls/durable-calls.test.ts', // redis-server, server processes
    'test/chat/conversation-appends.test.ts', // redis-server
    'test/calls/store-unreachable.test.ts', // redis-server, stopped
    'test/calls/kill-mid-turn.test.ts', // kills and restarts a server mid-turn
    'test/mcp/mcp-kill-mid-call.test.ts', // kills an MCP server mid-call
    'test/telemetry/without-otel.test.ts', // a Node process without OpenTelemetry installed
    'test/mcp/tasks.test.ts', // redis-server
  ],
  'vite-plugin': [
    'test/build.test.ts', // vite build
    'test/split-shapes.test.ts', // vite build and dev, Chromium
    'test/fixtures.test.ts', // the generator over every fixture, twice (bundled and through Vite)
    'test/app-views.test.ts', // builds MCP Apps views
    'test/generate-and-cli.test.ts', // the CLI as a process
    'test/cli-supervision.test.ts', // the CLI's child process, killed and timed out
    'test/readme-core-snippet.test.ts', // the README's snippet as a process
  ],
}

/**
 * What does not depend on the Node major runs once. `.ci/run` runs the whole suite on the oldest
 * supported Node, then again on the newer majors with MCP_BRIDGE_NODE_ONLY=1, which leaves out what
 * the browser or the version under test decides, not Node: the playground walked in Chromium
 * against its dev server, the docs site built and opened in Chromium, Storybook's build of an app
 * with the plugin, the matrix of Vite and zod versions apps are on (vite-versions.test.ts;
 * notes-app.test.ts keeps its Vite 8 case), and the newest conformance suite's prerelease (the
 * pinned suite stays). The server-side tests — the built playground, the
 * cluster, MCP, the docs' snippets, the framework apps — run on every Node.
 */
const nodeOnly = process.env.MCP_BRIDGE_NODE_ONLY === '1'
const browserUi = !nodeOnly

const unit = (pkg: keyof typeof SLOW) => ({ include: [`packages/${pkg}/test/**/*.test.{ts,tsx}`], exclude: SLOW[pkg].map((file) => `packages/${pkg}/${file}`) })

export default defineConfig({
  resolve: { alias: [...sourceAliases('runtime'), ...sourceAliases('vite-plugin')] },
  test: {
    passWithNoTests: true,
    // CI is a busy 2-core machine: many tests start servers, builds or processes. Tests with longer
    // work set their own bound; none relies on Vitest's 5 s default.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The fast project runs first, on its own (group 0), with its own workers; then the rest.
    sequence: { groupOrder: 1 },
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          root: '.',
          // Units wait on little but the CPU and the clock: threads, and two of them even on two cores
          // (one leaves a core idle while a file waits on a timer or an import).
          pool: 'threads',
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          include: [...unit('runtime').include, ...unit('vite-plugin').include],
          exclude: ['**/node_modules/**', ...unit('runtime').exclude, ...unit('vite-plugin').exclude],
        },
      },
      {
        extends: true,
        test: {
          name: 'runtime',
          root: './packages/runtime',
          include: SLOW.runtime,
        },
      },
      {
        extends: true,
        test: {
          name: 'vite-plugin',
          root: './packages/vite-plugin',
          include: SLOW['vite-plugin'],
        },
      },
      {
        extends: true,
        test: {
          name: 'playground',
          root: './playground',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', 'test/browser-ui.test.ts'],
        },
      },
      ...(browserUi
        ? [
            {
              extends: true as const,
              test: {
                name: 'playground-browser-ui',
                root: './playground',
                include: ['test/browser-ui.test.ts'],
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          // The docs site: built (API reference and VitePress), then every page opened in Chromium.
          name: 'docs',
          root: './docs',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...(nodeOnly ? ['test/docs-site.test.ts'] : [])],
        },
      },
      {
        extends: true,
        test: {
          // A scratch app outside the workspace, installed from the packed packages.
          name: 'adoption',
          root: './adoption',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...(nodeOnly ? ['test/vite-versions.test.ts', 'test/storybook.test.ts'] : [])],
        },
      },
      {
        extends: true,
        test: {
          // The official MCP conformance suite against an app written with the public API.
          name: 'conformance',
          root: './conformance',
          include: ['test/**/*.test.ts'],
          // The prerelease suite measures protocol coverage, not Node: once (the pinned suite runs on every Node).
          exclude: ['**/node_modules/**', ...(nodeOnly ? ['test/conformance-next.test.ts'] : [])],
        },
      },
    ],
  },
})
