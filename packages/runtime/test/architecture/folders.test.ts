/**
 * The runtime's layering, checked on its import statements: no cycles between folders, and the
 * browser side (client/, react/, the isomorphic core) never imports server-only folders.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : []
  })
}

/** folder -> folders it imports (relative imports only; entry files at the root are not a folder). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const file of files(src)) {
    const from = relative(src, dirname(file))
    if (from === '') continue
    const edges = graph.get(from) ?? new Set<string>()
    graph.set(from, edges)
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)) {
      const to = relative(src, dirname(resolve(dirname(file), spec!)))
      if (to !== from) edges.add(to)
    }
  }
  return graph
}

function reachable(graph: Map<string, Set<string>>, start: string): Set<string> {
  const seen = new Set<string>()
  const stack = [...(graph.get(start) ?? [])]
  while (stack.length) {
    const next = stack.pop()!
    if (seen.has(next)) continue
    seen.add(next)
    stack.push(...(graph.get(next) ?? []))
  }
  return seen
}

describe('runtime folders', () => {
  const graph = folderGraph()

  it('has the folders of the architecture', () => {
    expect([...graph.keys()].sort()).toEqual(
      [
        'ai-sdk',
        'bridge',
        'calls',
        'calls/stores',
        'chat',
        'client',
        'errors',
        'http',
        'mcp',
        'plugin',
        'model-context',
        'prompt',
        'protocol',
        'resource',
        'react',
        'sampling',
        'schema',
        'telemetry',
        'testing',
        'time',
        'tool',
      ].sort(),
    )
  })

  it('has no import cycles between folders', () => {
    const cycles = [...graph.keys()].filter((folder) => reachable(graph, folder).has(folder))
    expect(cycles).toEqual([])
  })

  it.each(['client', 'react', 'tool', 'prompt', 'resource', 'schema', 'model-context', 'errors', 'plugin', 'protocol', 'sampling'])(
    '%s never reaches a server-only folder',
    (folder) => {
      const server = ['ai-sdk', 'bridge', 'calls', 'calls/stores', 'chat', 'http', 'mcp', 'telemetry', 'testing']
      expect([...reachable(graph, folder)].filter((f) => server.includes(f))).toEqual([])
    },
  )

  it('keeps errors/ at the bottom: it imports no other folder', () => {
    expect([...(graph.get('errors') ?? [])]).toEqual([])
  })

  it('keeps time/ at the ground: the one clock imports no other folder, so every layer can take it', () => {
    expect([...(graph.get('time') ?? [])]).toEqual([])
  })
})

describe("the architecture page's folder list", () => {
  const readme = readFileSync(resolve(src, '../../../docs/reference/architecture.md'), 'utf8')
  const block = readme.slice(readme.indexOf('packages/runtime/src\n'), readme.indexOf('```', readme.indexOf('packages/runtime/src\n')))
  const listed = [...block.matchAll(/^ {2}([\w/-]+)\/\s/gm)].map((m) => m[1]!)

  it('names every folder once', () => {
    expect([...listed].sort()).toEqual([...folderGraph().keys()].sort())
  })

  it('is in dependency order, as it says: every import points to a folder further down', () => {
    const graph = folderGraph()
    const upward = listed.flatMap((folder, i) => [...(graph.get(folder) ?? [])].filter((to) => listed.indexOf(to) <= i).map((to) => `${folder} -> ${to}`))
    expect(upward).toEqual([])
  })
})
