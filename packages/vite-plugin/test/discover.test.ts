/**
 * Discovery on every fixture, snapshotted (TanStack Router's generator-test style): tools,
 * plugins and diagnostics with their exact positions.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { crossCheck, discoverProject } from '../src/core/discover.ts'
import { formatDiagnostic, sortDiagnostics } from '../src/core/diagnostics.ts'
import { fixtureSources, fixturesDir } from './support/fixtures.ts'

function discoverFixture(name: string) {
  const root = join(fixturesDir, name)
  const files = fixtureSources(name)
  const results = crossCheck(discoverProject(root, files))
  return {
    tools: results.flatMap((r) => r.tools.map((t) => ({ file: r.file, ...t }))),
    // What a plugin's resolution read, relative to the fixture (snapshots hold no machine's paths).
    plugins: results.flatMap((r) => r.plugins.map((p) => ({ file: r.file, ...p, dependsOn: p.dependsOn.map((f) => relative(root, f)) }))),
    diagnostics: sortDiagnostics(results.flatMap((r) => r.diagnostics)).map(formatDiagnostic),
  }
}

const fixtures = [
  'valid-basic',
  'renamed-imports',
  'namespace-import',
  'same-name-elsewhere',
  'non-literal-name',
  'unexported-tool',
  'duplicate-names',
  'wrapped-and-reexported',
  'shared-schemas',
]

describe('discovery', () => {
  it.each(fixtures)('%s', (name) => {
    expect(discoverFixture(name)).toMatchSnapshot()
  })

  it('finds tools and plugins through renamed and namespace imports, and ignores a same-named local function', () => {
    expect(discoverFixture('renamed-imports').tools.map((t) => t.name)).toEqual(['pick_color'])
    // Its tool is in its own file: its resolution reads no other file.
    expect(discoverFixture('renamed-imports').plugins[0]).toMatchObject({ tool: { file: 'src/tool.ts', exportName: 'pickColor' }, dependsOn: [] })
    expect(discoverFixture('namespace-import').tools.map((t) => t.name)).toEqual(['namespaced_tool'])
    expect(discoverFixture('same-name-elsewhere').tools.map((t) => t.name)).toEqual(['real_tool'])
  })

  it('reports the problems a build must not let through, each at its place', () => {
    expect(discoverFixture('duplicate-names').diagnostics).toEqual(['src/b.ts:3:23  Tool name "same_name" is already used by first at src/a.ts:3:22; tool names must be unique.'])
    expect(discoverFixture('non-literal-name').diagnostics[0]).toMatch(/^src\/tool\.ts:4:38  The tool name must be a string literal \(got name\)/)
    expect(discoverFixture('unexported-tool').diagnostics[0]).toMatch(/Tool "hidden_tool" \(hidden\) is not exported/)
    expect(discoverFixture('wrapped-and-reexported').diagnostics.join('\n')).toMatch(/Re-exporting createMcpTool[\s\S]*called inside a function/)
  })
})

describe('discovery on the tricky files a text scan gets wrong', () => {
  it('ignores definitions in comments and strings, and follows typed, asserted and satisfies-wrapped exports', () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-bridge-tricky-'))
    const write = (name: string, lines: string[]) => {
      mkdirSync(join(root, 'src'), { recursive: true })
      writeFileSync(join(root, 'src', name), lines.join('\n'))
      return join(root, 'src', name)
    }
    const runtime = "import { createMcpTool } from '@mcp-bridge/runtime'"
    const files = [
      write('commented.ts', [
        runtime,
        "// export const old = createMcpTool('old_tool').elicits({}).execute(function* () { return 1 })",
        "/* createMcpTool('also_old') */",
        'export {}',
      ]),
      write('strings.ts', [runtime, 'export const doc = "createMcpTool(\'in_a_string\')"', "export const tpl = `createPlugin(createMcpTool('in_a_template'))`"]),
      write('typed.ts', [
        runtime,
        "import type { AnyMcpTool } from '@mcp-bridge/runtime'",
        "export const typed: AnyMcpTool = createMcpTool('typed_tool').elicits({}).execute(function* () { return 1 })",
        "export const asserted = (createMcpTool('asserted_tool').elicits({}).execute(function* () { return 1 })) as AnyMcpTool",
        "export const satisfying = createMcpTool('satisfying_tool').elicits({}).execute(function* () { return 1 }) satisfies AnyMcpTool",
      ]),
    ]
    try {
      const results = crossCheck(discoverProject(root, files))
      expect(results.flatMap((r) => r.tools.map((t) => `${r.file}#${t.exportName}=${t.name}`))).toEqual([
        'src/typed.ts#typed=typed_tool',
        'src/typed.ts#asserted=asserted_tool',
        'src/typed.ts#satisfying=satisfying_tool',
      ])
      expect(results.flatMap((r) => r.diagnostics)).toEqual([])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('says where a file does not parse, instead of failing the run', () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-bridge-broken-'))
    mkdirSync(join(root, 'src'))
    writeFileSync(join(root, 'src/broken.ts'), "import { createMcpTool } from '@mcp-bridge/runtime'\nexport const t = createMcpTool('t'.elicits({})\n")
    try {
      const [result] = discoverProject(root, [join(root, 'src/broken.ts')])
      expect(result!.diagnostics.map(formatDiagnostic)).toEqual(['src/broken.ts:3:1  This file does not parse: Expected `)` but found `EOF`'])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
