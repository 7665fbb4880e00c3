/**
 * The bundled module loader (`core/bundle-loader.ts`): every module a generation runs is built into
 * SSR bundles (batches) and each imported once, each module still its own unit. What it must keep from the
 * module runner — each module's own errors and time limit, `import.meta.url`, what a result
 * depends on, a changed file re-run — and the way back to the runner when the bundle cannot be
 * built (fixtures.test.ts checks that every fixture gives the same diagnostics both ways).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createBundledModuleLoader } from '../src/core/bundle-loader.ts'
import { formatDiagnostic } from '../src/core/diagnostics.ts'
import { McpBridgeGenerator } from '../src/core/generator.ts'
import { resolveOptions } from '../src/core/options.ts'
import { tempProject } from './support/fixtures.ts'

const roots: string[] = []
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })))

/** A project of its own in the temp folder (`@mcp-bridge/runtime` and zod resolve through its node_modules links). */
function project(files: Record<string, string>, { bare = false } = {}): string {
  // Bare: no node_modules of its own, its packages found in the folder above (as in a monorepo).
  const root = bare ? join(tempProject('bundle-loader-bare'), 'app') : tempProject('bundle-loader')
  roots.push(bare ? dirname(root) : root)
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true })
    writeFileSync(join(root, file), content)
  }
  return root
}

const tool = (name: string, extra = '') =>
  `import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\n${extra}\nexport const ${name} = createMcpTool('${name}')\n  .description('${name}')\n  .elicits({ ok: z.object({ ok: z.boolean() }) })\n  .execute(function* () {\n    return 'done'\n  })\n`

async function generate(root: string) {
  const loader = createBundledModuleLoader(root, { configFile: false, timeoutMs: 2_000 })
  const generator = new McpBridgeGenerator(resolveOptions({}, root), loader)
  const result = await generator.generate()
  return { loader, generator, result, diagnostics: result.diagnostics.map(formatDiagnostic) }
}

describe('bundled module loader', () => {
  it('loads every module in one bundle; one module throwing fails only its own tools', async () => {
    const root = project({
      'src/a.ts': tool('a'),
      'src/b.ts': tool('b', "import { shared } from './shared.ts'\nvoid shared"),
      'src/shared.ts': "export const shared = 'x'\n",
      'src/broken.ts': tool('broken', "throw new Error('the broken module is broken')"),
    })
    const { loader, result, diagnostics } = await generate(root)
    try {
      expect(loader.stats).toEqual({ bundled: 3, fellBack: undefined })
      expect(result.toolCount).toBe(2)
      expect(diagnostics).toEqual(['src/broken.ts:1:1  Loading this module failed, so its tools could not be checked: the broken module is broken'])
      // What each result depends on (kept per module by the module cache): the module and the app files it imports.
      expect(loader.dependencies(join(root, 'src/b.ts'))).toEqual([join(root, 'src/b.ts'), join(root, 'src/shared.ts')])
      expect(loader.dependencies(join(root, 'src/a.ts'))).toEqual([join(root, 'src/a.ts')])
      expect(result.inputs).toEqual(['src/a.ts', 'src/b.ts', 'src/broken.ts', 'src/shared.ts'].map((f) => join(root, f)))
    } finally {
      await loader.close()
    }
  }, 60_000)

  it('builds the modules in batches (the bundler holds one batch at a time): every module loads, errors stay each its own', async () => {
    const root = project({
      ...Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`src/${n}.ts`, tool(n, "import { shared } from './shared.ts'\nvoid shared")])),
      'src/shared.ts': "export const shared = 'x'\n",
      'src/broken.ts': tool('broken', "throw new Error('the broken module is broken')"),
    })
    const loader = createBundledModuleLoader(root, { configFile: false, timeoutMs: 2_000, batchSize: 2 })
    try {
      const result = await new McpBridgeGenerator(resolveOptions({}, root), loader).generate()
      // Five modules in three builds (2 + 2 + 1): every one answered by a bundle, none by the runner.
      expect(loader.stats).toEqual({ bundled: 5, fellBack: undefined })
      expect(result.toolCount).toBe(4)
      expect(result.diagnostics.map(formatDiagnostic)).toEqual(['src/broken.ts:1:1  Loading this module failed, so its tools could not be checked: the broken module is broken'])
      // What each depends on is known across batches (the module graph of every build is kept).
      for (const n of ['a', 'd']) expect(loader.dependencies(join(root, `src/${n}.ts`))).toEqual([join(root, `src/${n}.ts`), join(root, 'src/shared.ts')])
      // Only app files: the module runner (which would list the runtime's files too) never ran one.
      expect(result.inputs).toEqual(['a', 'b', 'broken', 'c', 'd', 'shared'].map((n) => join(root, `src/${n}.ts`)))
      expect(existsSync(join(root, 'node_modules/.mcp-bridge'))).toBe(false)
    } finally {
      await loader.close()
    }
    expect(() => createBundledModuleLoader(root, { batchSize: 0 })).toThrow(/batchSize must be a whole number of modules, at least 1 \(got 0\)/)
  }, 60_000)

  it('hands over the first batch while the next ones build: the generation runs its modules meanwhile', async () => {
    const root = project(Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((n) => [`src/${n}.ts`, tool(n)])))
    const files = ['a', 'b', 'c', 'd', 'e'].map((n) => join(root, `src/${n}.ts`))
    const loader = createBundledModuleLoader(root, { configFile: false, batchSize: 2 })
    try {
      await loader.prepare!(files)
      // Only the first batch is in: the second is still in the bundler (it cannot finish within the
      // promise callbacks that ended prepare), and its modules wait for it, not for the runner.
      expect(loader.stats.bundled).toBe(2)
      expect(Object.keys(await loader.import(files[0]!))).toContain('a')
      expect(Object.keys(await loader.import(files[4]!))).toContain('e')
      expect(loader.stats).toEqual({ bundled: 5, fellBack: undefined })
    } finally {
      await loader.close()
    }
    expect(existsSync(join(root, 'node_modules/.mcp-bridge'))).toBe(false)
  }, 60_000)

  it('a batch that does not build sends only its own modules to the runner; the other batches still come from bundles', async () => {
    const root = project({
      'src/a.ts': tool('a'),
      'src/b.ts': tool('b'),
      'src/c.ts': tool('c', "import { nothing } from './not-there.ts'\nvoid nothing"),
      'src/d.ts': tool('d'),
      'src/e.ts': tool('e'),
    })
    const loader = createBundledModuleLoader(root, { configFile: false, timeoutMs: 5_000, batchSize: 2 })
    try {
      const result = await new McpBridgeGenerator(resolveOptions({}, root), loader).generate()
      // Batches a+b and e built; c+d did not (c's import), so those two ran in the runner.
      expect(loader.stats.bundled).toBe(3)
      expect(loader.stats.fellBack).toMatch(/not-there/)
      expect(result.toolCount).toBe(4)
      expect(result.diagnostics.map(formatDiagnostic)).toEqual([
        expect.stringMatching(/^src\/c\.ts:1:1 {2}Loading this module failed, so its tools could not be checked: .*not-there/),
      ])
    } finally {
      await loader.close()
    }
  }, 60_000)

  it('gives each module its own import.meta.url, filename and dirname, as the module runner does', async () => {
    const root = project({
      'src/where.ts': tool('where', 'export const location = { url: import.meta.url, filename: import.meta.filename, dirname: import.meta.dirname }'),
    })
    const loader = createBundledModuleLoader(root, { configFile: false })
    try {
      const file = join(root, 'src/where.ts')
      await loader.prepare!([file])
      expect((await loader.import(file)).location).toEqual({ url: pathToFileURL(file).href, filename: file, dirname: join(root, 'src') })
    } finally {
      await loader.close()
    }
  }, 60_000)

  it('a changed file, and every module that imports it, is run again by the module runner (dev regeneration)', async () => {
    const root = project({
      'src/a.ts': tool('a', "import { label } from './label.ts'\nexport const seen = label"),
      'src/c.ts': tool('c'),
      'src/label.ts': "export const label = 'before'\n",
    })
    const loader = createBundledModuleLoader(root, { configFile: false })
    try {
      const [a, c, label] = ['src/a.ts', 'src/c.ts', 'src/label.ts'].map((f) => join(root, f)) as [string, string, string]
      await loader.prepare!([a, c])
      expect((await loader.import(a)).seen).toBe('before')
      const first = await loader.import(c)
      // A dev server starts the module runner after its first generation, before any edit.
      await loader.warm()
      writeFileSync(label, "export const label = 'after'\n")
      loader.invalidate([label])
      expect((await loader.import(a)).seen).toBe('after')
      // Untouched modules still come from the bundle (the same module object, not run again).
      expect(await loader.import(c)).toBe(first)
      // A bundle is built once per loader: a later generation's prepare adds no second one.
      await loader.prepare!([a, c])
      expect(loader.stats.bundled).toBe(2)
    } finally {
      await loader.close()
    }
  }, 60_000)

  it('falls back to the module runner when the bundle cannot be built, and still reports each module on its own', async () => {
    const root = project({
      'src/good.ts': tool('good'),
      'src/missing-import.ts': tool('missing_import', "import { nothing } from './not-there.ts'\nvoid nothing"),
    })
    const { loader, result, diagnostics } = await generate(root)
    try {
      expect(loader.stats.bundled).toBe(0)
      expect(loader.stats.fellBack).toMatch(/not-there/)
      expect(result.toolCount).toBe(1)
      expect(diagnostics).toHaveLength(1)
      expect(diagnostics[0]).toMatch(/^src\/missing-import\.ts:1:1 {2}Loading this module failed, so its tools could not be checked: .*not-there/)
    } finally {
      await loader.close()
    }
  }, 60_000)

  it('removes its bundle (and the folders it created) as soon as it is imported; modules still load their packages after', async () => {
    // A module that imports a package only when it runs, after the bundle file is gone.
    const root = project({ 'src/a.ts': tool('a', "const late = await import('zod')\nexport const lateLoaded = typeof late.z.object") })
    // A bundle left by a process that died before importing it.
    const dead = join(root, 'node_modules/.mcp-bridge/load-999999-deadbeef')
    mkdirSync(dead, { recursive: true })
    writeFileSync(join(dead, 'load-all.mjs'), '')
    const { loader, result } = await generate(root)
    try {
      expect(result.toolCount).toBe(1)
      expect((await loader.import(join(root, 'src/a.ts'))).lateLoaded).toBe('function')
      // The dead process's bundle is swept and this loader's own is gone already (the folder was
      // there before, so it stays).
      expect(readdirSync(join(root, 'node_modules/.mcp-bridge'))).toEqual([])
    } finally {
      await loader.close()
    }

    // A project without a node_modules of its own: the loader creates it and removes it again.
    const bare = project({ 'src/a.ts': tool('a') }, { bare: true })
    const second = await generate(bare)
    expect(existsSync(join(bare, 'node_modules'))).toBe(false)
    await second.loader.close()
    expect(existsSync(join(bare, 'node_modules'))).toBe(false)

    // A node_modules that was there stays, and so does anything else in the scratch folder.
    const kept = project({ 'src/a.ts': tool('a'), 'node_modules/.mcp-bridge/other/file.txt': 'someone else' })
    const third = await generate(kept)
    await third.loader.close()
    expect(readdirSync(join(kept, 'node_modules/.mcp-bridge'))).toEqual(['other'])
  }, 60_000)
})
