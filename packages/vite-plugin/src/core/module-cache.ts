/**
 * Validation results per tool module, addressed by content: a module's result stands while the
 * module and every app file it imports (transitively) are byte-for-byte the same, under the same
 * runtime, plugin and lockfile. So a generation after a change — a CI run on a branch with the
 * main branch's cache restored, a dev server restarted — runs only the modules whose code (or
 * whose imports' code) changed. Kept in Vite's cache directory beside the whole-tree cache
 * (`build-cache.ts`), which covers the case where nothing changed at all.
 */
import { join } from 'node:path'
import { digestInputs, inputsUnchanged, lockfile, versions } from './build-cache.ts'
import type { Diagnostic } from './diagnostics.ts'
import type { ManifestTool } from './codegen.ts'
import { readIfExists, writeIfChanged } from './write-if-changed.ts'

/** What the manifest and registries need from one loaded tool: plain data, so it can be kept. */
export type ToolFacts = Omit<ManifestTool, 'source' | 'plugin'> & { keys: string[] }

export interface ModuleValidation {
  tools: Array<{ exportName: string; facts: ToolFacts }>
  diagnostics: Diagnostic[]
}

interface Entry {
  /** Absolute path → sha256 of every file the result depends on (the module first). */
  inputs: Record<string, string>
  result: ModuleValidation
}

const FILE = 'mcp-bridge-modules.json'

export class ModuleCache {
  readonly #entries: Map<string, Entry>
  #changed = false

  private constructor(
    private readonly path: string,
    private readonly salt: string,
    entries: Record<string, Entry>,
  ) {
    this.#entries = new Map(Object.entries(entries))
  }

  static load(cacheDir: string, root: string): ModuleCache {
    const path = join(cacheDir, FILE)
    const salt = JSON.stringify({ versions: versions(), lockfile: lockfile(root), root })
    let entries: Record<string, Entry> = {}
    try {
      const stored = JSON.parse(readIfExists(path) ?? '{}') as { salt?: string; entries?: Record<string, Entry> }
      if (stored.salt === salt && stored.entries) entries = stored.entries
    } catch {
      // A damaged cache is no cache.
    }
    return new ModuleCache(path, salt, entries)
  }

  /** The kept result for a module (root-relative `file`), if nothing it depends on changed. */
  get(file: string): { result: ModuleValidation; inputs: string[] } | undefined {
    const entry = this.#entries.get(file)
    if (!entry) return undefined
    return inputsUnchanged(entry.inputs) ? { result: entry.result, inputs: Object.keys(entry.inputs) } : undefined
  }

  set(file: string, inputs: readonly string[], result: ModuleValidation): void {
    this.#entries.set(file, { inputs: digestInputs(inputs), result })
    this.#changed = true
  }

  /** Forget modules that no longer hold tools, and write the cache if it changed. */
  save(keep: ReadonlySet<string>): void {
    for (const file of [...this.#entries.keys()]) {
      if (keep.has(file)) continue
      this.#entries.delete(file)
      this.#changed = true
    }
    if (!this.#changed) return
    writeIfChanged(this.path, JSON.stringify({ salt: this.salt, entries: Object.fromEntries(this.#entries) }))
    this.#changed = false
  }
}
