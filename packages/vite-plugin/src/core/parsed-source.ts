/**
 * A source file parsed once with oxc (rolldown's `parseAst`): its AST, each node's parent, and
 * offsets turned into `line:column` for diagnostics. `SourceReader` parses files on demand and
 * keeps them for one discovery run (a plugin's import is followed into its tool's file);
 * `ParseCache` keeps them for a whole `vite build`, so discovery and the split parse each file once.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { parseModule, walk, type EsNode } from './estree.ts'

export interface ParsedSource {
  path: string
  code: string
  program: EsNode
  parents: ReadonlyMap<EsNode, EsNode>
  /** 1-based line and column of an offset. */
  position(offset: number): { line: number; column: number }
}

export function parseSource(path: string, code: string): ParsedSource {
  const program = parseModule(code, path)
  const parents = new Map<EsNode, EsNode>()
  walk(program, (node, parent) => parent && parents.set(node, parent))
  const lineStarts = [0]
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1)
  return {
    path,
    code,
    program,
    parents,
    position(offset) {
      // The last line start at or before the offset (binary search: files can be long).
      let low = 0
      let high = lineStarts.length - 1
      while (low < high) {
        const mid = (low + high + 1) >> 1
        if (lineStarts[mid]! <= offset) low = mid
        else high = mid - 1
      }
      return { line: low + 1, column: offset - lineStarts[low]! + 1 }
    },
  }
}

/** Parsed files by path, reused while their code is the same: one parse per file per build. */
export class ParseCache {
  readonly #parsed = new Map<string, ParsedSource>()
  /** Parses made, and parses reused (a file asked for again with the same code). */
  parses = 0
  hits = 0

  get(path: string, code: string): ParsedSource {
    const cached = this.#parsed.get(path)
    if (cached?.code === code) {
      this.hits += 1
      return cached
    }
    this.parses += 1
    const parsed = parseSource(path, code)
    this.#parsed.set(path, parsed)
    return parsed
  }

  /** Files in the cache. */
  get size(): number {
    return this.#parsed.size
  }
}

export class SourceReader {
  readonly #parsed = new Map<string, ParsedSource | undefined>()
  /** Files read by `get` while `reading` runs. */
  #touched: Set<string> | undefined

  /** `shared`: a build's cache, which the split reads too. */
  constructor(private readonly shared?: ParseCache) {}

  /** The parsed file at `path`; undefined if it is not a readable file. */
  get(path: string): ParsedSource | undefined {
    this.#touched?.add(path)
    if (this.#parsed.has(path)) return this.#parsed.get(path)
    return this.add(path, existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined)
  }

  /** `fn`'s value, and every file it read through `get` (what its answer depends on). */
  reading<T>(fn: () => T): { value: T; files: string[] } {
    const outer = this.#touched
    const touched = (this.#touched = new Set())
    try {
      return { value: fn(), files: [...touched] }
    } finally {
      this.#touched = outer
      for (const file of touched) outer?.add(file)
    }
  }

  /** Parse `code` as the file at `path` (read by the caller), and keep it until `release`. */
  add(path: string, code: string | undefined): ParsedSource | undefined {
    const known = this.#parsed.get(path)
    // Read already through `get` (a plugin's import followed into its tool's file): one parse.
    if (known !== undefined && known.code === code) return known
    const parsed = code === undefined ? undefined : this.shared ? this.shared.get(path, code) : parseSource(path, code)
    this.#parsed.set(path, parsed)
    return parsed
  }

  /**
   * Forget every parse (a build's shared cache keeps its own). An AST with its parent map is
   * ~25 KB per small file: held for a whole run, 6,000 files were 140 MiB of heap at once.
   */
  release(): void {
    this.#parsed.clear()
  }
}
