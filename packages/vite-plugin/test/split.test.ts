/**
 * The split transform per environment, snapshotted: the client loses `.execute(...)` and the
 * imports only it used; the server loses the `onElicit` handlers and the React component.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { discoverProject } from '../src/core/discover.ts'
import { parseSource } from '../src/core/parsed-source.ts'
import { redact, splitModule } from '../src/core/split.ts'
import { fixtureNames, fixtureSources, fixturesDir } from './support/fixtures.ts'

const app = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../fixtures/split-app/src')
const read = (f: string) => readFileSync(resolve(app, f), 'utf8')

describe('split', () => {
  it('client: stubs execute() and drops the server-only import', () => {
    const out = splitModule(read('tool.ts'), 'tool.ts', 'client')!
    expect(out.code).toMatchSnapshot()
    expect(out.removed).toEqual({ steps: ['execute'], imports: ['lookupFlights', 'SERVER_SECRET'], declarations: [], sources: ['./server-only.ts'] })
    expect(out.code).not.toContain('server-only')
    expect(out.code).toContain("import { z } from 'zod'")
    expect(out.map.mappings.length).toBeGreaterThan(0)
  })

  it("client: the map's copy of the source keeps every line and column but none of the removed code", () => {
    const code = read('tool.ts')
    const copy = splitModule(code, 'tool.ts', 'client')!.map.sourcesContent![0]!
    expect(copy).toHaveLength(code.length)
    expect(copy.split('\n').map((l) => l.length)).toEqual(code.split('\n').map((l) => l.length))
    expect(copy).toContain("createMcpTool('pick_flight')")
    expect(copy).toContain('/* removed from the client bundle by mcp-bridge */')
    for (const gone of ['TOOL_BODY_MARKER_4e2b81', 'lookupFlights', 'server-only', 'ctx.elicit']) expect(copy).not.toContain(gone)
  })

  it('redact blanks overlapping and adjacent ranges once, keeps CRLF line breaks, and notes only where the note fits', () => {
    const code = 'keep(1)\r\nsecret_one_and_a_long_enough_line_for_the_note_here__\r\nab\r\nkeep(2)'
    const a = code.indexOf('secret')
    const b = code.indexOf('ab\r\n') + 2
    const out = redact(
      code,
      [
        [a, b],
        [a + 3, a + 10],
      ],
      'client',
    )
    expect(out).toHaveLength(code.length)
    expect(out).toBe(`keep(1)\r\n/* removed from the client bundle by mcp-bridge */${' '.repeat(53 - 50)}\r\n  \r\nkeep(2)`)
    expect(redact('a(secret)', [[2, 8]], 'server')).toBe('a(      )')
  })

  it('server: stubs onElicit handlers (keys kept) and drops the component import', () => {
    const out = splitModule(read('plugin.tsx'), 'plugin.tsx', 'server')!
    expect(out.code).toMatchSnapshot()
    expect(out.removed).toEqual({ steps: ['onElicit'], imports: ['Picker'], declarations: [], sources: ['./components/Picker.tsx'] })
    expect(out.code).toContain('choose: () => { throw new __mcpBridgeRemovedFromBundle("onElicit", "on the server") }')
    expect(out.code).toContain("import { pickFlight } from './tool.ts'")
  })

  it('leaves the other side alone, and files without tools untouched', () => {
    expect(splitModule(read('tool.ts'), 'tool.ts', 'server')).toBeUndefined()
    expect(splitModule(read('plugin.tsx'), 'plugin.tsx', 'client')).toBeUndefined()
    expect(splitModule(read('server-only.ts'), 'server-only.ts', 'client')).toBeUndefined()
  })

  it('parses only a file whose text can hold a step to cut; an escaped step name still counts', () => {
    let parses = 0
    const parse = (code: string, id: string) => () => {
      parses += 1
      return parseSource(id, code)
    }
    // The plugin file spells no `execute` / `handoff`: nothing to cut in the client, never parsed.
    expect(splitModule(read('plugin.tsx'), 'plugin.tsx', 'client', parse(read('plugin.tsx'), 'plugin.tsx'))).toBeUndefined()
    expect(parses).toBe(0)
    expect(splitModule(read('tool.ts'), 'tool.ts', 'client', parse(read('tool.ts'), 'tool.ts'))).toBeDefined()
    expect(parses).toBe(1)
    // `.\u0065xecute(` is `.execute(` to the parser, though the text never spells it.
    const escaped = read('tool.ts').replace('.execute(', '.\\u0065xecute(')
    expect(escaped).not.toContain('execute(')
    expect(splitModule(escaped, 'tool.ts', 'client')?.removed.steps).toEqual(['execute'])
  })

  it('keeps an import that is still used outside the cut', () => {
    const code = [
      "import { createMcpTool } from '@mcp-bridge/runtime'",
      "import { helper, other } from './helpers.ts'",
      "export const t = createMcpTool('t').elicits({}).execute(function* () { return helper() + other() })",
      'export const label = helper.name',
    ].join('\n')
    const out = splitModule(code, 't.ts', 'client')!
    expect(out.removed.imports).toEqual(['other'])
    expect(out.code).toContain("import { helper } from './helpers.ts'")
  })

  it('removes exactly the dead bindings of mixed imports, whatever their shape', () => {
    const code = [
      "import * as mcp from '@mcp-bridge/runtime'",
      "import Db, { query, keep, close as shut } from './db.ts'",
      "import Log, * as logNs from './log.ts'",
      "import { type Secret, token } from './secret.ts'",
      "import './side-effect.ts'",
      "export const t = mcp.createMcpTool('t').elicits({}).execute(function* (): Generator<never, string> {",
      '  const s: Secret = token; shut(); logNs.write(s); return Db.run(query) })',
      'export const kept = [keep, Log]',
      'export type Shown = Secret',
    ].join('\n')
    const out = splitModule(code, 't.ts', 'client')!
    expect(out.removed).toEqual({ steps: ['execute'], imports: ['Db', 'query', 'shut', 'logNs', 'token'], declarations: [], sources: [] })
    expect(out.code).toContain("import { keep } from './db.ts'")
    expect(out.code).toContain("import Log from './log.ts'")
    expect(out.code).toContain("import { type Secret } from './secret.ts'")
    expect(out.code).toContain("import './side-effect.ts'")
  })

  it('follows renamed imports, cuts handoff() too, and counts JSX tags as uses', () => {
    const code = [
      "import { createMcpTool as tool, createPlugin as plugin } from '@mcp-bridge/runtime'",
      "import { Card, Badge } from './ui.tsx'",
      "import { charge } from './billing.ts'",
      "export const pay = tool('pay').elicits({}).handoff({ before: function* () { return charge() }, client: function* () {}, after: function* () {} })",
      'export const payPlugin = plugin(pay).onElicit({ "confirm-it": () => <Card />, other() { return <Badge /> } })',
      'export const Shown = () => <Badge />',
    ].join('\n')
    const client = splitModule(code, 'pay.tsx', 'client')!
    expect(client.removed).toEqual({ steps: ['handoff'], imports: ['charge'], declarations: [], sources: ['./billing.ts'] })
    expect(client.code).toContain('.handoff({ before: () => { throw')
    const server = splitModule(code, 'pay.tsx', 'server')!
    expect(server.removed).toEqual({ steps: ['onElicit'], imports: ['Card'], declarations: [], sources: [] })
    expect(server.code).toContain("import { Badge } from './ui.tsx'")
    expect(server.code).toMatch(/onElicit\(\{ "confirm-it": \(\) => \{ throw .*, other: \(\) => \{ throw/)
  })

  it("ignores a same-named function that is not the runtime's, and type-only runtime imports", () => {
    const code = [
      "import type { createMcpTool as T } from '@mcp-bridge/runtime'",
      "import { createMcpTool } from './my-builder.ts'",
      "export const t = createMcpTool('t').execute(() => 1)",
    ].join('\n')
    expect(splitModule(code, 't.ts', 'client')).toBeUndefined()
  })

  // The split and discovery share one chain matcher (chains.ts); where discovery accepts a file,
  // the split must cut every tool and plugin in it — no silent miss.
  it.each(fixtureNames())('agrees with discovery on fixture %s', (name) => {
    const files = fixtureSources(name)
    const discovered = discoverProject(join(fixturesDir, name), files)
    for (const [i, file] of files.entries()) {
      const d = discovered[i]!
      if (d.diagnostics.some((x) => x.code === 'WRAPPED_CALL' || x.code === 'RE_EXPORT')) continue
      const code = readFileSync(file, 'utf8')
      // A tool with a non-literal name is reported, not recorded — and still cut.
      const unnamed = d.diagnostics.filter((x) => x.code === 'NON_LITERAL_NAME' && x.message.startsWith('The tool name')).length
      expect(splitModule(code, file, 'client')?.removed.steps.length ?? 0, `${d.file} (client)`).toBe(d.tools.length + unnamed)
      expect(splitModule(code, file, 'server')?.removed.steps.length ?? 0, `${d.file} (server)`).toBe(d.plugins.length)
    }
  })
})
