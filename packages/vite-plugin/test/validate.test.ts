/**
 * Build-time validation through the real Vite module runner: schemas come from the real zod
 * objects (including ones composed in another file), and each violation lands on the source
 * line of the offending property.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { formatDiagnostic, sortDiagnostics } from '../src/core/diagnostics.ts'
import { crossCheck, discoverProject } from '../src/core/discover.ts'
import { createViteModuleLoader, type ModuleLoader } from '../src/core/load-modules.ts'
import { loadAndValidate } from '../src/core/validate.ts'
import { ModuleCache } from '../src/core/module-cache.ts'
import { tempProject } from './support/fixtures.ts'

const fixturesDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../fixtures')
const loaders: ModuleLoader[] = []
afterAll(() => Promise.all(loaders.map((l) => l.close())))

async function validateFixture(name: string, loader?: ModuleLoader) {
  const root = join(fixturesDir, name)
  const files = (readdirSync(join(root, 'src'), { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(root, 'src', f))
    .sort()
  const discoveries = crossCheck(discoverProject(root, files))
  const l = loader ?? (await createViteModuleLoader(root, { configFile: false }))
  if (!loader) loaders.push(l)
  const result = await loadAndValidate(root, discoveries, l)
  return { tools: result.tools.map((t) => t.facts.name).sort(), diagnostics: sortDiagnostics(result.diagnostics).map(formatDiagnostic) }
}

describe('build-time validation', () => {
  it('maps every schema violation to the offending property, and composed schemas to their key', async () => {
    const result = await validateFixture('invalid-schemas')
    expect(result.tools).toEqual([])
    expect(result.diagnostics).toEqual([
      'src/composed.ts:5:14  composed › who.address: nested objects are not allowed; flatten the fields into the top-level object (e.g. userName, userEmail) or elicit them with a second key [nested-object]',
      'src/profile.ts:8:7  profile › details.user: nested objects are not allowed; flatten the fields into the top-level object (e.g. userName, userEmail) or elicit them with a second key [nested-object]',
      'src/profile.ts:9:7  profile › details.tags: arrays of objects are not allowed; elicitation fields are flat primitives — ask for one item per elicitation, or use z.array(z.enum([...])) to pick several known options [array-not-enum]',
      'src/profile.ts:10:7  profile › details.choice: a field has one type (got string | number); pick one, or use z.enum([...]) for choices [union]',
      'src/profile.ts:11:7  profile › details.extra: records (z.record) cannot be a form field; declare each field in the top-level z.object({...}) [record]',
      // A schema error does not hide the warnings of the same tool.
      'src/profile.ts:13:23  warning: profile › color.hex: pattern (.regex()) is not part of MCP elicitation; clients may not enforce it, while the server still validates with zod and refuses a non-matching answer [pattern]',
    ])
  }, 30_000)

  it('checks valid tools, keeps their warnings, and loads schemas shared across files', async () => {
    expect(await validateFixture('valid-basic')).toEqual({ tools: ['book_flight', 'clock'], diagnostics: [] })
    expect(await validateFixture('shared-schemas')).toEqual({ tools: ['composed', 'signup'], diagnostics: [] })
  }, 30_000)

  it('reports a module that throws when loaded as a diagnostic, not a crash', async () => {
    expect((await validateFixture('throws-on-import')).diagnostics).toEqual(['src/tool.ts:1:1  Loading this module failed, so its tools could not be checked: database is down'])
  }, 30_000)

  it('gives up on a module whose top-level code never settles, instead of hanging', async () => {
    const root = join(fixturesDir, 'hangs-on-import')
    const loader = await createViteModuleLoader(root, { configFile: false, timeoutMs: 300 })
    loaders.push(loader)
    const result = await validateFixture('hangs-on-import', loader)
    expect(result.diagnostics).toEqual([
      `src/tool.ts:1:1  Loading this module failed, so its tools could not be checked: Loading src/tool.ts did not finish within 300 ms (does its top-level code wait on something that never happens?)`,
    ])
  }, 30_000)

  it("keeps each module's result by content: a later run (a new process) runs only the modules whose code or imports changed", async () => {
    const root = tempProject('module-cache')
    const cacheDir = join(root, 'node_modules/.vite')
    const write = (file: string, code: string) => {
      mkdirSync(dirname(join(root, file)), { recursive: true })
      writeFileSync(join(root, file), code)
    }
    const tool = (name: string, schema: string, imports = '') =>
      `import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\n${imports}\nexport const ${name} = createMcpTool('${name}').elicits({ ask: ${schema} }).execute(function* () { return 1 })\n`
    try {
      write('src/schemas.ts', "import { z } from 'zod'\nexport const who = z.object({ name: z.string() })\n")
      write('src/a.ts', tool('a', 'who', "import { who } from './schemas.ts'"))
      write('src/b.ts', tool('b', 'z.object({ ok: z.boolean() })'))
      const files = ['src/a.ts', 'src/b.ts', 'src/schemas.ts'].map((f) => join(root, f))
      const run = async () => {
        const loader = await createViteModuleLoader(root, { configFile: false })
        const imported: string[] = []
        const counting: ModuleLoader = { ...loader, import: (file) => (imported.push(relative(root, file)), loader.import(file)) }
        try {
          const cache = ModuleCache.load(cacheDir, root)
          const discoveries = crossCheck(discoverProject(root, files))
          const result = await loadAndValidate(root, discoveries, counting, cache)
          cache.save(new Set(discoveries.filter((d) => d.tools.length).map((d) => d.file)))
          return { imported: imported.sort(), tools: result.tools.map((t) => t.facts.name).sort(), kept: result.keptInputs.map((f) => relative(root, f)).sort() }
        } finally {
          await loader.close()
        }
      }
      expect(await run()).toEqual({ imported: ['src/a.ts', 'src/b.ts'], tools: ['a', 'b'], kept: [] })
      // Nothing changed: no module runs; the kept results name what they depend on.
      expect(await run()).toEqual({ imported: [], tools: ['a', 'b'], kept: ['src/a.ts', 'src/b.ts', 'src/schemas.ts'] })
      // A shared schema changes: the tool that imports it runs again, the other does not.
      write('src/schemas.ts', "import { z } from 'zod'\nexport const who = z.object({ name: z.string().max(40) })\n")
      expect(await run()).toEqual({ imported: ['src/a.ts'], tools: ['a', 'b'], kept: ['src/b.ts'] })
      write('src/b.ts', tool('b', 'z.object({ ok: z.boolean(), note: z.string().optional() })'))
      expect((await run()).imported).toEqual(['src/b.ts'])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)

  it("loads tools when the app's SSR environment runs elsewhere (Nitro's worker, as TanStack Start's scaffold has; workerd): in a server environment of its own", async () => {
    const root = tempProject('ssr-elsewhere')
    try {
      mkdirSync(join(root, 'src'), { recursive: true })
      // The app's SSR environment is one this process cannot run modules in, as Nitro's plugin makes it.
      writeFileSync(
        join(root, 'vite.config.ts'),
        "import { DevEnvironment, defineConfig } from 'vite'\nexport default defineConfig({ environments: { ssr: { dev: { createEnvironment: (name, config) => new DevEnvironment(name, config, { hot: false }) } } } })\n",
      )
      writeFileSync(
        join(root, 'src/tool.ts'),
        "import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\nexport const ask = createMcpTool('ask').elicits({ who: z.object({ name: z.string() }) }).execute(function* () { return 1 })\n",
      )
      const loader = await createViteModuleLoader(root)
      loaders.push(loader)
      expect(Object.keys(await loader.import(join(root, 'src/tool.ts')))).toEqual(['ask'])
      // The runtime stays external there too (Node loads its build), as in the SSR environment.
      expect(loader.dependencies(join(root, 'src/tool.ts'))).toEqual([join(root, 'src/tool.ts')])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})
