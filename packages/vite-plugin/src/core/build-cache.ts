/**
 * Skip regeneration in `vite build` when nothing it depends on changed: a fingerprint of every
 * included source file (tools and what they import from the app), the resolved options and the
 * versions of both packages. The cache lives in Vite's cache directory; a hit also requires the
 * generated files on disk to be exactly the ones recorded, so a hand edit is never trusted.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { includedFiles } from './source-files.ts'
import type { Diagnostic } from './diagnostics.ts'
import type { GenerateResult } from './generator.ts'
import type { ResolvedOptions } from './options.ts'
import { readIfExists, writeIfChanged } from './write-if-changed.ts'

const CACHE_FILE = 'mcp-bridge-build.json'

export async function fingerprint(options: ResolvedOptions): Promise<string> {
  const files = await includedFiles(options)
  const hash = createHash('sha256')
  hash.update(JSON.stringify({ ...options, versions: versions(), lockfile: lockfile(options.root) }))
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(file))
  return hash.digest('hex')
}

export function readCached(cacheDir: string, print: string): GenerateResult | undefined {
  const raw = readIfExists(join(cacheDir, CACHE_FILE))
  if (!raw) return undefined
  try {
    const cached = JSON.parse(raw) as { fingerprint: string; inputs: Record<string, string>; result: GenerateResult }
    if (cached.fingerprint !== print) return undefined
    // Files the tools imported from outside `include` (shared schemas elsewhere) count too.
    if (!inputsUnchanged(cached.inputs)) return undefined
    if (!cached.result.files.every((f) => readIfExists(f.path) === f.content)) return undefined
    return cached.result
  } catch {
    return undefined
  }
}

export function writeCached(cacheDir: string, print: string, result: GenerateResult): void {
  const inputs = digestInputs(result.inputs)
  writeIfChanged(join(cacheDir, CACHE_FILE), JSON.stringify({ fingerprint: print, inputs, result }))
}

/** Each file's digest: what a kept result was computed from. */
export function digestInputs(files: readonly string[]): Record<string, string> {
  return Object.fromEntries(files.map((file) => [file, hashFile(file)]))
}

/** Whether every file still has the digest it had (a missing file counts as changed). */
export function inputsUnchanged(digests: Record<string, string>): boolean {
  return Object.entries(digests).every(([file, digest]) => hashFile(file) === digest)
}

function hashFile(file: string): string {
  const content = readIfExists(file)
  return content === undefined ? 'missing' : createHash('sha256').update(content).digest('hex')
}

/** The nearest lockfile: a dependency upgrade (a new zod) must not reuse old results. */
export function lockfile(root: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    for (const name of ['package-lock.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock']) {
      const content = readIfExists(join(dir, name))
      if (content !== undefined) return createHash('sha256').update(content).digest('hex')
    }
    if (dirname(dir) === dir) return 'none'
  }
}

export function versions(): Record<string, string> {
  const require = createRequire(import.meta.url)
  const read = (name: string) => {
    try {
      return (require(`${name}/package.json`) as { version: string }).version
    } catch {
      return 'unknown'
    }
  }
  return { runtime: read('@mcp-bridge/runtime'), plugin: read('@mcp-bridge/vite-plugin') }
}

const TYPES_CACHE_FILE = 'mcp-bridge-types.json'

/** `check`'s type-aware pass, kept like a generation: same fingerprint, and every file the checker read unchanged. */
export function readCachedTypes(cacheDir: string, print: string): Diagnostic[] | undefined {
  const raw = readIfExists(join(cacheDir, TYPES_CACHE_FILE))
  if (!raw) return undefined
  try {
    const cached = JSON.parse(raw) as { fingerprint: string; inputs: Record<string, string>; diagnostics: Diagnostic[] }
    if (cached.fingerprint !== print) return undefined
    return inputsUnchanged(cached.inputs) ? cached.diagnostics : undefined
  } catch {
    return undefined
  }
}

export function writeCachedTypes(cacheDir: string, print: string, diagnostics: readonly Diagnostic[], inputs: readonly string[]): void {
  writeIfChanged(join(cacheDir, TYPES_CACHE_FILE), JSON.stringify({ fingerprint: print, inputs: digestInputs(inputs), diagnostics }))
}
