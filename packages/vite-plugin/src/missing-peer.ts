/**
 * An app server that imports a runtime entry whose optional peer is not installed (most often
 * `@mcp-bridge/runtime/mcp` without `@modelcontextprotocol/server`) is stopped while Vite
 * transforms the importing module — before Node ever tries the import. (Not in `resolveId`: Vite
 * does not resolve an SSR module's external imports through plugins; Node does, at run time.)
 *
 * Why before: Node keeps a failed ES module import, and every module that imported it, for the
 * life of the process. Once Node has failed to link the runtime's MCP entry, installing the SDK
 * changes nothing until the dev server restarts. Refused here instead, nothing is cached: after
 * `npm install X` the next request resolves again, finds it and loads the app server.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { initSync, parse as lexImports } from 'es-module-lexer'
import { McpBridgeError } from '@mcp-bridge/runtime/build'
import { parseModule, type EsNode } from './core/estree.ts'

export class OptionalPeerMissingError extends McpBridgeError {
  readonly code = 'OPTIONAL_PEER_MISSING'
  constructor(
    readonly entry: string,
    readonly missing: readonly string[],
  ) {
    super(
      `${entry} needs ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed. ` +
        `Install ${missing.length === 1 ? 'it' : 'them'}: npm install ${missing.join(' ')} (a running dev server picks ${missing.length === 1 ? 'it' : 'them'} up at its next request: no restart).`,
    )
  }
}

type Manifest = { name?: string; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> }

/** The manifest of the package a file belongs to: its nearest `package.json`. */
function owningPackage(file: string): Manifest | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as Manifest
    if (dirname(dir) === dir) return undefined
  }
}

/** The peers a package marks optional (npm installs the others with it). */
function optionalPeers(manifest: Manifest): string[] {
  return Object.keys(manifest.peerDependencies ?? {}).filter((name) => manifest.peerDependenciesMeta?.[name]?.optional === true)
}

/** A bare import's package name: `@scope/name` or `name`, without a subpath. */
function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

/** A relative import's file: as written, or the TypeScript source a `.js` specifier names (a workspace's sources). */
function onDisk(file: string): string | undefined {
  if (existsSync(file)) return file
  const source = [file.replace(/\.js$/, '.ts'), file.replace(/\.js$/, '.tsx')].find((f) => f !== file && existsSync(f))
  return source
}

/**
 * The specifiers of a module's static imports and re-exports: what Node links before running it.
 * A package's built JavaScript is read with es-module-lexer (a tenth of a full parse: a whole
 * runtime entry's graph in a few milliseconds); TypeScript sources (a workspace's own) with the
 * parser, which tells `import type` apart.
 */
function staticImports(file: string): string[] {
  const code = readFileSync(file, 'utf8')
  if (/\.[cm]?js$/.test(file)) {
    initSync()
    const [imports] = lexImports(code)
    // `d === -1`: a static import or re-export (not `import()`, not `import.meta`).
    return imports.flatMap((entry) => (entry.d === -1 && entry.n !== undefined ? [entry.n] : []))
  }
  const specifiers: string[] = []
  for (const node of parseModule(code, file).body as EsNode[]) {
    if (node.type !== 'ImportDeclaration' && node.type !== 'ExportAllDeclaration' && node.type !== 'ExportNamedDeclaration') continue
    if (node.importKind === 'type' || node.exportKind === 'type') continue
    const source = node.source as { value?: unknown } | null | undefined
    if (typeof source?.value === 'string') specifiers.push(source.value)
  }
  return specifiers
}

/** Each file's static imports, read once however many entries reach it. */
type ImportCache = Map<string, string[]>

/**
 * The optional peers of a package that a file of it imports statically, directly or through the
 * package's own files: what must be installed for Node to link that file.
 */
export function peersImportedBy(entryFile: string, cache: ImportCache = new Map()): string[] {
  const owner = owningPackage(entryFile)
  const peers = new Set(owner ? optionalPeers(owner) : [])
  if (peers.size === 0) return []
  const found = new Set<string>()
  const seen = new Set<string>()
  const queue = [entryFile]
  while (queue.length) {
    const file = onDisk(queue.pop()!)
    if (!file || seen.has(file)) continue
    seen.add(file)
    let imports = cache.get(file)
    if (!imports) cache.set(file, (imports = staticImports(file)))
    for (const specifier of imports) {
      if (/^\.{1,2}\//.test(specifier)) queue.push(resolve(dirname(file), specifier))
      else if (peers.has(packageName(specifier))) found.add(packageName(specifier))
    }
  }
  return [...found].sort()
}

/** Whether Node would find package `name` from `dir`: a `node_modules/<name>` here or above. */
function installedFrom(dir: string, name: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules', name, 'package.json'))) return true
    if (dirname(at) === at) return false
  }
}

/** The runtime entries a module imports at run time (`@mcp-bridge/runtime`, `@mcp-bridge/runtime/mcp`, …; not `import type`). */
export function runtimeEntriesImported(code: string): string[] {
  const entries = new Set<string>()
  for (const match of code.matchAll(
    /(?:^|[\s;}])(?:import|export)\b[^'"]*?\bfrom\s*['"](@mcp-bridge\/runtime(?:\/[\w./-]+)?)['"]|(?:^|[\s;])import\s*['"](@mcp-bridge\/runtime(?:\/[\w./-]+)?)['"]/g,
  )) {
    // A type-only import is erased before Node sees the module: it needs nothing installed.
    if (!/^[\s;}]*(?:import|export)\s+type\b/.test(match[0])) entries.add((match[1] ?? match[2])!)
  }
  return [...entries]
}

/**
 * A guard for one package's entries (`@mcp-bridge/runtime/...`): given the import as written and the
 * file it resolved to, throws `OptionalPeerMissingError` when an optional peer that file links is
 * not installed. Cheap where it is called most (every server module that imports the runtime): an
 * entry whose peers were all there once is not looked at again, and the import graph is read only
 * while an optional peer of the package is missing (once per file).
 */
export function createPeerGuard(): (specifier: string, resolvedFile: string) => void {
  const satisfied = new Set<string>()
  const imports: ImportCache = new Map()
  const peersOf = new Map<string, string[]>()
  return (specifier, resolvedFile) => {
    // Yarn Plug'n'Play has no node_modules to look in: the guard stands aside there.
    if (process.versions.pnp || satisfied.has(resolvedFile)) return
    const owner = owningPackage(resolvedFile)
    const absent = (owner ? optionalPeers(owner) : []).filter((peer) => !installedFrom(dirname(resolvedFile), peer))
    let needed: string[] = []
    if (absent.length) {
      let peers = peersOf.get(resolvedFile)
      if (!peers) peersOf.set(resolvedFile, (peers = peersImportedBy(resolvedFile, imports)))
      needed = absent.filter((peer) => peers.includes(peer)).sort()
    }
    if (needed.length) throw new OptionalPeerMissingError(specifier, needed)
    // What this entry links is installed, and stays so: not checked again.
    satisfied.add(resolvedFile)
  }
}
