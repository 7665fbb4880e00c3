/**
 * Generation and the CLI: snapshots of the generated files, byte-for-byte stable regeneration,
 * stale detection, exit codes and JSON output. Runs on temporary copies of the fixtures.
 */
import { execFile } from 'node:child_process'
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../src/cli.ts'
import { McpBridgeGenerator, type GenerateResult } from '../src/core/generator.ts'
import { createViteModuleLoader } from '../src/core/load-modules.ts'
import { resolveOptions } from '../src/core/options.ts'
import { bin, fixtureCopies, fixturesDir, fixtureSources } from './support/fixtures.ts'
import { discoverProject } from '../src/core/discover.ts'
import { ParseCache } from '../src/core/parsed-source.ts'
import { formatDiagnostic } from '../src/core/diagnostics.ts'
import { typeDiagnostics } from '../src/core/type-check.ts'

const copies = fixtureCopies()
afterAll(copies.removeAll)

/** A copy of a fixture without its generated files. */
function copyFixture(name: string): string {
  const dir = copies.copy(name)
  rmSync(join(dir, 'src/mcp-bridge'), { recursive: true, force: true })
  return dir
}

async function cli(args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const loaded: string[] = []
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), loading: (f) => loaded.push(f) })
  return { code, out: out.join('\n'), err: err.join('\n'), loaded }
}

describe('check: the type pass', () => {
  it('runs again when a tsconfig appears after a run without one (its kept answer was made without it)', async () => {
    const root = copies.copy('split-shapes')
    const tsconfig = join(root, 'tsconfig.json')
    const written = readFileSync(tsconfig, 'utf8')
    rmSync(tsconfig)
    // Without a tsconfig the checker has no Node types: a handler reading process.env does not check.
    const without = await cli(['check', '--root', root])
    expect(without.out).toContain("Cannot find name 'process'")
    writeFileSync(tsconfig, written)
    const withIt = await cli(['check', '--root', root])
    expect(withIt.out).not.toContain("Cannot find name 'process'")
    expect(withIt.code, withIt.out + withIt.err).toBe(0)
  }, 180_000)
})

describe('generate', () => {
  it('writes typed registries and the manifest, then changes no byte when regenerated', async () => {
    const root = copyFixture('valid-basic')
    const first = await cli(['generate', '--root', root])
    expect(first).toMatchObject({ code: 0, out: 'mcp-bridge generate: 2 tools, 0 errors, 0 warnings; wrote 3 files' })
    const read = (f: string) => readFileSync(join(root, 'src/mcp-bridge', f), 'utf8')
    expect(read('server.gen.ts')).toMatchSnapshot('server.gen.ts')
    expect(read('client.gen.ts')).toMatchSnapshot('client.gen.ts')
    const manifest = JSON.parse(read('mcp-tools.json'))
    expect(manifest).toMatchSnapshot('mcp-tools.json')
    expect(manifest.tools.map((t: { name: string; plugin: unknown }) => [t.name, t.plugin !== null])).toEqual([
      ['book_flight', true],
      ['clock', false],
    ])
    expect(manifest.tools[0].elicits.pickFlight.hasContext).toBe(true)

    expect(first.loaded.length).toBeGreaterThan(0)
    // Nothing changed: the last clean run's result stands, and no tool module runs.
    const again = await cli(['generate', '--root', root])
    expect(again.out).toBe('mcp-bridge generate: 2 tools, 0 errors, 0 warnings; up to date (nothing changed since the last clean run: no module ran; --no-cache runs them)')
    expect(again.loaded).toEqual([])
    const forced = await cli(['generate', '--root', root, '--no-cache'])
    expect(forced.out).toBe('mcp-bridge generate: 2 tools, 0 errors, 0 warnings; up to date')
    expect(forced.loaded.length).toBeGreaterThan(0)
    // The committed outputs of the fixture are exactly what generation produces.
    expect(read('server.gen.ts')).toBe(readFileSync(join(fixturesDir, 'valid-basic/src/mcp-bridge/server.gen.ts'), 'utf8'))
  }, 60_000)

  it('regenerates incrementally as a running dev server does: new, changed and deleted files, each read alone', async () => {
    const root = copyFixture('valid-basic')
    const loader = await createViteModuleLoader(root, { configFile: false })
    try {
      const generator = new McpBridgeGenerator(resolveOptions({}, root), loader)
      const names = (r: GenerateResult) => JSON.parse(r.manifest).tools.map((t: { name: string }) => t.name)
      expect(names(await generator.generate())).toEqual(['book_flight', 'clock'])
      const added = join(root, 'src/tools/added.ts')
      writeFileSync(added, "import { createMcpTool } from '@mcp-bridge/runtime'\nexport const added = createMcpTool('added').elicits({}).execute(function* () { return 1 })\n")
      expect(names(await generator.generate([added], { incremental: true }))).toEqual(['added', 'book_flight', 'clock'])
      // A file that no longer names the runtime holds no tool.
      writeFileSync(added, 'export const added = 1\n')
      expect(names(await generator.generate([added], { incremental: true }))).toEqual(['book_flight', 'clock'])
      rmSync(join(root, 'src/tools/clock.ts'))
      expect(names(await generator.generate([join(root, 'src/tools/clock.ts')], { incremental: true }))).toEqual(['book_flight'])
    } finally {
      await loader.close()
    }
  }, 60_000)

  it('regenerating in dev reads a plugin file again only when it, or a file its tool is resolved through, changed', async () => {
    const root = copyFixture('valid-basic')
    const loader = await createViteModuleLoader(root, { configFile: false })
    const parses = new ParseCache()
    try {
      const generator = new McpBridgeGenerator(resolveOptions({}, root), loader, parses)
      const plugins = (r: GenerateResult) => JSON.parse(r.manifest).tools.map((t: { name: string; plugin: { export: string } | null }) => [t.name, t.plugin?.export ?? null])
      expect(plugins(await generator.generate())).toEqual([
        ['book_flight', 'bookFlightPlugin'],
        ['clock', null],
      ])
      // Another tool changes: only it is parsed again — the plugin file is not.
      const clock = join(root, 'src/tools/clock.ts')
      writeFileSync(clock, `${readFileSync(clock, 'utf8')}\n// edited\n`)
      const reads = () => parses.parses + parses.hits
      const before = reads()
      await generator.generate([clock], { incremental: true })
      expect(reads() - before).toBe(1)
      // Its tool's file changes: the plugin is read again (its tool may have moved), and still finds it.
      const tool = join(root, 'src/tools/book-flight/tool.ts')
      writeFileSync(tool, `${readFileSync(tool, 'utf8')}\n// edited\n`)
      const beforeTool = reads()
      expect(plugins(await generator.generate([tool], { incremental: true }))).toEqual([
        ['book_flight', 'bookFlightPlugin'],
        ['clock', null],
      ])
      // The tool file and the plugin file, one parse each (the plugin's reader follows its import
      // into the tool file's parse; discovering that file then uses the same parse).
      expect(reads() - beforeTool).toBe(2)
    } finally {
      await loader.close()
    }
  }, 60_000)

  it("a run after one tool file changed runs only that module (the others' results are kept by content)", async () => {
    const root = copyFixture('valid-basic')
    const first = await cli(['generate', '--root', root])
    expect(first.loaded.map((f) => f.replace(`${root}/`, '')).sort()).toEqual(['src/tools/book-flight/tool.ts', 'src/tools/clock.ts'])
    const clock = join(root, 'src/tools/clock.ts')
    writeFileSync(clock, `${readFileSync(clock, 'utf8')}\n// a comment: the code changed, the tool did not\n`)
    const again = await cli(['generate', '--root', root])
    expect(again.out).toBe('mcp-bridge generate: 2 tools, 0 errors, 0 warnings; up to date')
    expect(again.loaded.map((f) => f.replace(`${root}/`, ''))).toEqual(['src/tools/clock.ts'])
    // App code that is not a tool changes (a component, say): every tool's result is kept, and no
    // module runs — the module loader does not even start.
    const other = join(root, 'src/not-a-tool.ts')
    writeFileSync(other, `${readFileSync(other, 'utf8')}\n// edited\n`)
    const third = await cli(['generate', '--root', root])
    expect(third.out).toBe('mcp-bridge generate: 2 tools, 0 errors, 0 warnings; up to date')
    expect(third.loaded).toEqual([])
  }, 60_000)

  it('check fails on stale outputs (a tool changed after generation) and passes once regenerated', async () => {
    const root = copyFixture('valid-basic')
    await cli(['generate', '--root', root])
    expect((await cli(['check', '--root', root])).code).toBe(0)
    const clock = join(root, 'src/tools/clock.ts')
    writeFileSync(clock, readFileSync(clock, 'utf8').replace("description('The time')", "description('The current time')"))
    const stale = await cli(['check', '--root', root])
    expect(stale.code).toBe(1)
    expect(stale.out).toContain('src/mcp-bridge/mcp-tools.json:1:1  Out of date: this generated file does not match the sources; run `mcp-bridge generate` and commit the result.')
    await cli(['generate', '--root', root])
    expect((await cli(['check', '--root', root])).code).toBe(0)
  }, 60_000)

  it('does not write outputs while there are errors', async () => {
    const root = copyFixture('invalid-schemas')
    const result = await cli(['generate', '--root', root])
    expect(result.code).toBe(1)
    // The errors do not hide the same tool's warning (profile's color.hex pattern).
    expect(result.out).toMatch(/5 errors, 1 warning; not written \(fix the errors first\)$/)
    // check names the source errors only: "run generate" cannot help until they are fixed.
    const checked = await cli(['check', '--root', root])
    expect(checked.code).toBe(1)
    expect(checked.out).not.toContain('Missing')
    expect(checked.out).toMatch(/^src\/profile\.ts:8:7  profile › details\.user: nested objects/m)
    expect(checked.out).toMatch(/5 errors, 1 warning; checked$/)
  }, 60_000)

  it('reads each real file once: a symlink loop or a second path to a folder adds no duplicate tools', async () => {
    const root = copyFixture('valid-basic')
    symlinkSync('.', join(root, 'src/again')) // src/again/again/... → the same files
    symlinkSync('tools', join(root, 'src/tools-link'))
    const result = await cli(['generate', '--root', root])
    expect(result).toMatchObject({ code: 0, out: 'mcp-bridge generate: 2 tools, 0 errors, 0 warnings; wrote 3 files' })
  }, 60_000)
})

describe('mcp-bridge CLI', () => {
  it("uses the mcpBridge({...}) options from the app's vite.config.ts, as the plugin does", async () => {
    const root = copyFixture('custom-options')
    rmSync(join(root, 'src/generated'), { recursive: true, force: true })
    // Through the bin, as users run it: the config imports the plugin's TypeScript sources.
    const run = (...args: string[]) => promisify(execFile)(process.execPath, [bin, ...args, '--root', root])
    expect((await run('generate')).stdout).toBe('mcp-bridge generate: 1 tool, 0 errors, 0 warnings; wrote 3 files\n')
    const manifest = JSON.parse(readFileSync(join(root, 'src/generated/tools.json'), 'utf8'))
    expect(manifest.tools.map((t: { name: string }) => t.name)).toEqual(['echo'])
    expect((await run('check', '--no-cache')).stdout).toBe('mcp-bridge check: 1 tool, 0 errors, 0 warnings; checked\n')
    // A CI run on an unchanged tree with the cache restored runs no module.
    expect((await run('check')).stdout).toBe(
      'mcp-bridge check: 1 tool, 0 errors, 0 warnings; checked (nothing changed since the last clean run: no module ran; --no-cache runs them)\n',
    )
  }, 60_000)

  it('runs under plain Node: prints file:line:col diagnostics and exits 1 on errors', async () => {
    const run: { code?: number; stdout: string } = await promisify(execFile)(process.execPath, [bin, 'check', '--root', join(fixturesDir, 'duplicate-names')]).catch(
      (e: { code: number; stdout: string }) => e,
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('src/b.ts:3:23  Tool name "same_name" is already used by first at src/a.ts:3:22; tool names must be unique.')
    expect(run.stdout).toMatch(/mcp-bridge check: 2 tools, \d+ errors?, 0 warnings; checked\n$/)
  }, 60_000)

  it('counts the tools it left out apart in its summary: found, and how many of them are valid', async () => {
    const result = await cli(['check', '--root', join(fixturesDir, 'invalid-schemas'), '--no-types', '--no-cache'])
    expect(result.code).toBe(1)
    expect(result.out.split('\n').at(-1)).toMatch(/^mcp-bridge check: 2 tools found, 0 of them valid, \d+ errors, \d+ warnings?; checked$/)
    const json = JSON.parse((await cli(['check', '--root', join(fixturesDir, 'invalid-schemas'), '--no-types', '--no-cache', '--json'])).out) as { tools: number; found: number }
    expect([json.found, json.tools]).toEqual([2, 0])
  }, 60_000)

  it('exits 0 on a clean project with up-to-date outputs', async () => {
    // A fresh copy, generated once: no result kept by another test answers for it.
    const root = copyFixture('valid-basic')
    expect(await cli(['generate', '--root', root, '--no-cache'])).toMatchObject({ code: 0 })
    expect(await cli(['check', '--root', root, '--no-cache'])).toMatchObject({ code: 0, out: 'mcp-bridge check: 2 tools, 0 errors, 0 warnings; checked' })
  }, 60_000)

  it('prints machine-readable diagnostics with --json', async () => {
    const result = await cli(['check', '--json', '--root', join(fixturesDir, 'non-literal-name')])
    const json = JSON.parse(result.out)
    expect(json).toMatchObject({ ok: false, command: 'check', errors: expect.any(Number) })
    expect(json.diagnostics[0]).toMatchObject({ file: 'src/tool.ts', line: 4, column: 38, severity: 'error', code: 'NON_LITERAL_NAME' })
  }, 60_000)

  it('exits 2 on usage errors, naming the problem', async () => {
    expect(await cli([])).toMatchObject({ code: 2, err: expect.stringMatching(/^mcp-bridge: expected one command, check or generate \(got none\)/) })
    expect(await cli(['check', '--nope'])).toMatchObject({ code: 2, err: expect.stringMatching(/Unknown option '--nope'/) })
    expect(await cli(['check', '--manifest', 'a/b.json'])).toMatchObject({ code: 2, err: expect.stringMatching(/manifest: a file name ending in \.json/) })
    expect((await cli(['--help'])).out).toMatch(/^Usage: mcp-bridge <check\|generate>/)
  })

  it("check's type-aware pass reports what only the types know, at file:line:col; --no-types and generate skip it", async () => {
    const root = copyFixture('type-errors')
    expect(await cli(['generate', '--root', root])).toMatchObject({ code: 0, out: 'mcp-bridge generate: 1 tool, 0 errors, 0 warnings; wrote 3 files' })
    const checked = await cli(['check', '--root', root])
    expect(checked.code).toBe(1)
    expect(checked.out.split('\n')).toEqual([
      'src/tools/pick-plugin.ts:7:6  The onElicit handler for "pick" answers with content.color as number, but the key\'s response schema wants string.',
      'src/tools/pick.ts:11:100  ctx.elicit("pick", {...}) passes "shade", which the key\'s context schema does not declare: add it to the key\'s `context` schema, or leave it out.',
      'mcp-bridge check: 1 tool, 2 errors, 0 warnings; checked (nothing changed since the last clean run: no module ran; --no-cache runs them)',
    ])
    const json = JSON.parse((await cli(['check', '--json', '--root', root])).out)
    expect(json.diagnostics.map((d: { code: string }) => d.code)).toEqual(['PLUGIN_HANDLER_TYPE', 'ELICIT_CONTEXT_TYPE'])
    expect(await cli(['check', '--no-types', '--root', root])).toMatchObject({ code: 0, out: expect.stringMatching(/^mcp-bridge check: 1 tool, 0 errors, 0 warnings; checked/) })
  }, 120_000)

  it("a key without a handler is said once, in our words: TypeScript's version of it is not repeated", async () => {
    const root = copyFixture('type-errors')
    const edit = (file: string, from: string, to: string) => writeFileSync(join(root, file), readFileSync(join(root, file), 'utf8').replace(from, to))
    // The tool gains a key the plugin has no handler for; the plugin's other type error is fixed.
    edit(
      'src/tools/pick.ts',
      'context: z.object({ palette: z.array(z.string()) }) },',
      'context: z.object({ palette: z.array(z.string()) }) },\n    size: z.object({ size: z.string() }),',
    )
    edit('src/tools/pick.ts', ", shade: 'dark'", '')
    edit('src/tools/pick-plugin.ts', 'color: 42', "color: 'red'")
    const checked = await cli(['check', '--root', root, '--no-cache'])
    expect(checked.code).toBe(1)
    expect(checked.out.split('\n')).toEqual([
      expect.stringMatching(/^src\/tools\/pick-plugin\.ts:\d+:\d+  Plugin pickColorPlugin: no handler for "size"/),
      'mcp-bridge check: 1 tool, 1 error, 0 warnings; checked',
    ])
  }, 120_000)
})

describe('the type-aware pass without ts-morph (an optional peer)', () => {
  it('warns once, saying how to turn it on or off; any other loading failure is not hidden', async () => {
    const root = join(fixturesDir, 'type-errors')
    const discoveries = discoverProject(root, fixtureSources('type-errors'))
    const missing = () => Promise.reject(Object.assign(new Error("Cannot find package 'ts-morph'"), { code: 'ERR_MODULE_NOT_FOUND' }))
    const checked = await typeDiagnostics(root, discoveries, missing)
    expect(checked.diagnostics.map(formatDiagnostic)).toEqual([
      'package.json:1:1  warning: The type-aware pass needs ts-morph, which is not installed here: `npm install -D ts-morph` turns it on; `mcp-bridge check --no-types` skips it without this warning.',
    ])
    await expect(typeDiagnostics(root, discoveries, () => Promise.reject(new Error('broken install')))).rejects.toThrow('broken install')
  })
})
