/**
 * Every fixture under fixtures/, through the whole generator as the CLI runs it (options from
 * the fixture's Vite config, modules loaded as one bundle as the plugin and CLI load them, and
 * again one by one through Vite's module runner — both must say the same), snapshotted in
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
import { createBundledModuleLoader } from '../src/core/bundle-loader.ts'
import { createViteModuleLoader, type ModuleLoader } from '../src/core/load-modules.ts'
import { projectOptions } from '../src/core/project-options.ts'
import { fixtureNames, fixturesDir } from './support/fixtures.ts'

const here = fileURLToPath(new URL('.', import.meta.url))
const fixtures = fixtureNames()

describe('fixtures', () => {
  it('are at least the dozen the plugin promises to handle', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(12)
  })

  const loaders = ['bundle', 'module runner'] as const
  it.each(fixtures.flatMap((name) => loaders.map((how) => [name, how] as const)))(
    '%s (%s)',
    async (name, how) => {
      const root = join(fixturesDir, name)
      const options = await projectOptions(root)
      // Short per-module limit: one fixture's module never settles, on purpose.
      const bundled = how === 'bundle' ? createBundledModuleLoader(root, { timeoutMs: 2_000 }) : undefined
      const loader: ModuleLoader = bundled ?? (await createViteModuleLoader(root, { timeoutMs: 2_000 }))
      try {
        const generator = new McpBridgeGenerator(options, loader)
        const result = await generator.generate()
        const snapshot = (file: string) => join(here, '__snapshots__/fixtures', name, file)
        const report = result.diagnostics.map(formatDiagnostic).join('\n') || '(no diagnostics)'
        await expect(`${report}\n`).toMatchFileSnapshot(snapshot('diagnostics.txt'))
        // The bundle answered for the modules itself: none fell back to the module runner.
        if (bundled) {
          expect(bundled.stats.fellBack).toBeUndefined()
          if (result.toolCount > 0) expect(bundled.stats.bundled).toBeGreaterThan(0)
        }
        if (result.diagnostics.some((d) => d.severity === 'error')) return
        for (const file of result.files) await expect(file.content).toMatchFileSnapshot(snapshot(basename(file.path)))
        if (existsSync(options.outDir)) expect(generator.stale(result).map(formatDiagnostic)).toEqual([])
      } finally {
        await loader.close()
      }
    },
    60_000,
  )
})
