/**
 * The docs' "generator for scripts" snippet (docs/guide/vite-plugin.md), run as written: plain Node, the built package,
 * in a fixture project (its `process.cwd()`), printing the tool count and the diagnostics.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { fixturesDir } from './support/fixtures.ts'

const readme = readFileSync(resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../docs/guide/vite-plugin.md'), 'utf8')
const snippet = /```ts\n(import \{ McpBridgeGenerator[^\n]*'@mcp-bridge\/vite-plugin\/core'\n[\s\S]*?)```/.exec(readme)?.[1]

describe('docs (The Vite plugin): the generator the plugin and the CLI share, from a script', () => {
  it("runs as written and reports the fixture's tools", () => {
    expect(snippet).toBeDefined()
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', snippet!], { cwd: join(fixturesDir, 'valid-basic'), encoding: 'utf8', timeout: 60_000 })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toBe('2 []\n')
  }, 90_000)
})
