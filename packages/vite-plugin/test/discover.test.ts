/**
 * Discovery on every fixture, snapshotted (TanStack Router's generator-test style): tools,
 * plugins and diagnostics with their exact positions.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { crossCheck, discoverProject } from '../src/core/discover.ts'
import { formatDiagnostic, sortDiagnostics } from '../src/core/diagnostics.ts'
import { createDiscoveryProject } from '../src/core/project.ts'
import { fixtureSources, fixturesDir } from './support/fixtures.ts'

function discoverFixture(name: string) {
  const root = join(fixturesDir, name)
  const files = fixtureSources(name)
  const results = crossCheck(discoverProject(createDiscoveryProject(files), root, files))
  return {
    tools: results.flatMap((r) => r.tools.map((t) => ({ file: r.file, ...t }))),
    plugins: results.flatMap((r) => r.plugins.map((p) => ({ file: r.file, ...p }))),
    diagnostics: sortDiagnostics(results.flatMap((r) => r.diagnostics)).map(formatDiagnostic),
  }
}

const fixtures = ['valid-basic', 'renamed-imports', 'namespace-import', 'same-name-elsewhere', 'non-literal-name', 'unexported-tool', 'duplicate-names', 'wrapped-and-reexported', 'shared-schemas']

describe('discovery', () => {
  it.each(fixtures)('%s', (name) => {
    expect(discoverFixture(name)).toMatchSnapshot()
  })

  it('finds tools and plugins through renamed and namespace imports, and ignores a same-named local function', () => {
    expect(discoverFixture('renamed-imports').tools.map((t) => t.name)).toEqual(['pick_color'])
    expect(discoverFixture('renamed-imports').plugins[0]?.tool).toEqual({ file: 'src/tool.ts', exportName: 'pickColor' })
    expect(discoverFixture('namespace-import').tools.map((t) => t.name)).toEqual(['namespaced_tool'])
    expect(discoverFixture('same-name-elsewhere').tools.map((t) => t.name)).toEqual(['real_tool'])
  })

  it('reports the problems a build must not let through, each at its place', () => {
    expect(discoverFixture('duplicate-names').diagnostics).toEqual([
      'src/b.ts:3:23  Tool name "same_name" is already used by first at src/a.ts:3:22; tool names must be unique.',
    ])
    expect(discoverFixture('non-literal-name').diagnostics[0]).toMatch(/^src\/tool\.ts:4:38  The tool name must be a string literal \(got name\)/)
    expect(discoverFixture('unexported-tool').diagnostics[0]).toMatch(/Tool "hidden_tool" \(hidden\) is not exported/)
    expect(discoverFixture('wrapped-and-reexported').diagnostics.join('\n')).toMatch(/Re-exporting createMcpTool[\s\S]*called inside a function/)
  })
})
