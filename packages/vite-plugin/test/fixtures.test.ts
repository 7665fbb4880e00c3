/**
 * Every fixture under fixtures/, through the whole generator as the CLI runs it (options from
 * the fixture's Vite config, modules loaded by a real Vite module runner), snapshotted in
 * TanStack Router's generator-test style: one folder per fixture under
 * __snapshots__/fixtures/, holding its diagnostics and — when it has no errors — the files it
 * generates. A fixture whose generated files are committed must be current.
 */
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { formatDiagnostic } from '../src/core/diagnostics.ts'
import { McpBridgeGenerator } from '../src/core/generator.ts'
import { createViteModuleLoader } from '../src/core/load-modules.ts'
import { projectOptions } from '../src/core/project-options.ts'
import { fixtureNames, fixturesDir } from './support/fixtures.ts'

const here = fileURLToPath(new URL('.', import.meta.url))
const fixtures = fixtureNames()

describe('fixtures', () => {
  it('are at least the dozen the plugin promises to handle', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(12)
  })

  it.each(fixtures)('%s', async (name) => {
    const root = join(fixturesDir, name)
    const options = await projectOptions(root)
    // Short per-module limit: one fixture's module never settles, on purpose.
    const loader = await createViteModuleLoader(root, { timeoutMs: 2_000 })
    try {
      const generator = new McpBridgeGenerator(options, loader)
      const result = await generator.generate()
      const snapshot = (file: string) => join(here, '__snapshots__/fixtures', name, file)
      const report = result.diagnostics.map(formatDiagnostic).join('\n') || '(no diagnostics)'
      await expect(`${report}\n`).toMatchFileSnapshot(snapshot('diagnostics.txt'))
      if (result.diagnostics.some((d) => d.severity === 'error')) return
      for (const file of result.files) await expect(file.content).toMatchFileSnapshot(snapshot(basename(file.path)))
      if (existsSync(options.outDir)) expect(generator.stale(result).map(formatDiagnostic)).toEqual([])
    } finally {
      await loader.close()
    }
  }, 60_000)
})
