/**
 * The build's last word on the split: after bundling, no server-only code (see `server-only.ts`)
 * that a tool or plugin file leads to may be in a client chunk. The transform already refused
 * what a tool file surely keeps; this sees the rest, from what actually ships:
 *
 *   - a server-only module in a chunk (a Node built-in's browser stub, a `.server` file, the
 *     `server-only` marker), reached through imports from a tool or plugin file — however many
 *     modules lie between;
 *   - what a tool file kept only because it exports it (the transform cannot know whether
 *     anything imports it), when the bundler did not drop it after all.
 *
 * It reads the bundle and the module graph the bundler already built; it never resolves an
 * import again (another plugin's resolver — React Router's `.server` guard — would refuse it).
 */
import type { Leak } from './split.ts'
import { builtinOfStub, serverOnlyModuleId } from './server-only.ts'

/** What the check needs from an output chunk (Rollup's and Rolldown's alike). */
export interface ShippedChunk {
  type: 'chunk'
  fileName: string
  modules: Record<string, { renderedLength: number; code: string | null }>
}

/** What the check needs from the bundler's module graph. */
export type ImportersOf = (id: string) => { importers: readonly string[]; dynamicImporters: readonly string[] } | null

export interface LeakInputs {
  /** The output bundle (assets are skipped). */
  bundle: Record<string, ShippedChunk | { type: 'asset' }>
  importersOf: ImportersOf
  /** Tool and plugin modules of this client build (ids as the bundler has them). */
  bridgeModules: ReadonlySet<string>
  /** Leaks a tool file kept only through an export, by module id. */
  exportOnly: ReadonlyMap<string, readonly Leak[]>
  /** An id as people read it (relative to the app's root). */
  display(id: string): string
}

/** One message per server-only module or kept read that ships; empty when the client is clean. */
export function clientLeaks({ bundle, importersOf, bridgeModules, exportOnly, display: displayPath }: LeakInputs): string[] {
  const display = (id: string) => builtinOfStub(id) ?? displayPath(id)
  const shipped = new Map<string, { chunk: string; code: string | null }>()
  for (const output of Object.values(bundle)) {
    if (output.type !== 'chunk') continue
    for (const [id, module] of Object.entries(output.modules)) if (module.renderedLength > 0) shipped.set(id, { chunk: output.fileName, code: module.code })
  }
  const messages: string[] = []
  for (const [id, { chunk }] of shipped) {
    const why = serverOnlyModuleId(id)
    if (!why) continue
    const path = pathFromBridge(id, importersOf, bridgeModules)
    if (!path) continue
    // The tool file's own account of why it kept the import, when it imports the module itself.
    const kept = path.length === 2 ? exportOnly.get(path[0]!)?.find((leak) => leak.specifier !== undefined && namesModule(leak.specifier, id)) : undefined
    // A built-in's stub stays in the chunk for its import statement even when the bundler dropped
    // every use (the exported helper nobody imports): an empty object nothing reads, not a leak.
    const uses = kept?.names ?? []
    if (kept && builtinOfStub(id) && !uses.some((name) => shipped.get(path[0]!)?.code?.includes(name))) continue
    messages.push(
      [
        `${display(id)} (${why}) is in the client chunk ${chunk}, imported by ${path.map(display).join(' → ')}.`,
        ...(kept ? [`In ${display(path[0]!)}, the client keeps it because of:`, ...kept.chain.map((line) => `  ${line}`)] : []),
      ].join('\n'),
    )
  }
  for (const [id, leaks] of exportOnly) {
    const code = shipped.get(id)?.code
    if (!code) continue
    for (const leak of leaks) {
      if (leak.specifier !== undefined || !code.includes(leak.what)) continue
      messages.push(
        [`${display(id)}:${leak.at.line}:${leak.at.column}  ${leak.what} (${leak.why}) is in the client chunk; it is kept by:`, ...leak.chain.map((line) => `  ${line}`)].join(
          '\n',
        ),
      )
    }
  }
  return messages
}

/** Whether `specifier` plausibly names the module `id` (for a message only: nothing is resolved). */
function namesModule(specifier: string, id: string): boolean {
  const base = (path: string) =>
    path
      .replace(/[?#].*$/, '')
      .replace(/^node:/, '')
      .split(/[\\/:]/)
      .pop()!
      .replace(/\.[cm]?[jt]sx?$/, '')
  return base(specifier) === base(id)
}

/** The shortest import path from a tool or plugin module down to `id` (both included), or undefined. */
function pathFromBridge(id: string, importersOf: ImportersOf, bridgeModules: ReadonlySet<string>): string[] | undefined {
  const next = new Map<string, string>()
  const queue = [id]
  const seen = new Set(queue)
  while (queue.length) {
    const current = queue.shift()!
    if (bridgeModules.has(current)) {
      const path = [current]
      for (let at = next.get(current); at !== undefined; at = next.get(at)) path.push(at)
      return path
    }
    const info = importersOf(current)
    for (const importer of [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])]) {
      if (seen.has(importer)) continue
      seen.add(importer)
      next.set(importer, current)
      queue.push(importer)
    }
  }
  return undefined
}
