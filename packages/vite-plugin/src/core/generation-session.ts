/**
 * A generation session: how a long-lived host (the dev server) keeps generated files current as
 * sources change. The host only reports what it sees (`run(changed)`, `catchUp()`); the session
 * owns the rest, so the Vite adapter is a few lines and the rules are tested without Vite:
 *
 *   - one generation at a time; changes reported meanwhile collapse into one more run, which
 *     re-reads only the changed files;
 *   - every full run lists the included files once, hands that listing to the generator, and
 *     keeps it with each file's mtime: what the outputs were made from;
 *   - `catchUp()` (when the watcher's first scan is done, so it reports every change from then
 *     on) compares the file system with that listing: a file written while the watcher was still
 *     starting is regenerated, never lost; later runs are incremental;
 *   - `settle()` resolves once no run is pending and the file system still matches what the last
 *     run read — whatever the watcher has or has not reported yet.
 */
import { statSync } from 'node:fs'
import type { GenerateResult } from './generator.ts'

/**
 * What a `GenerationSession` needs: how to list the included files, how to run one generation, and where results and errors go.
 */
export interface GenerationSessionOptions {
  /** The included source files, as the generator would list them. */
  list(): Promise<string[]>
  /**
   * One generation. `files`: the listing to use (a full run); `changed` with `incremental`: re-read
   * only those (the listing is kept from before).
   */
  generate(request: { files: readonly string[] | undefined; changed: readonly string[] | undefined; incremental: boolean }): Promise<GenerateResult>
  /** Each run's result (to report diagnostics). */
  onResult?(result: GenerateResult, first: boolean): void
  onError?(error: Error): void
}

/** What the runs read: each listed file's mtime (ms), and when it was last looked at. */
type Listing = Map<string, { mtime: number; at: number }>

/** File systems keep mtimes coarser than the clock: a file this recent is looked at again. */
const MTIME_SLACK_MS = 50
/** `settle()` stops chasing a tree that keeps changing after this many rounds. */
const MAX_SETTLE_ROUNDS = 20

/**
 * Keeps generated files current while sources change, for a long-lived host (the dev server): one generation at a
 * time, changes met meanwhile folded into one more run, and `settle()` once the outputs match the files on disk.
 *
 * @example
 * ```ts
 * import { GenerationSession, McpBridgeGenerator, createViteModuleLoader, projectOptions } from '@mcp-bridge/vite-plugin/core'
 *
 * const root = process.cwd()
 * const generator = new McpBridgeGenerator(await projectOptions(root), await createViteModuleLoader(root))
 * const session = new GenerationSession({
 *   list: () => generator.sourceFiles(),
 *   generate: ({ files, changed, incremental }) => generator.generate(changed, { incremental, ...(files && { files }) }),
 *   onResult: (result) => console.log(`${result.toolCount} tools`),
 * })
 * await session.run() // then session.run([changedFile]) from a watcher
 * await session.settle()
 * ```
 */
export class GenerationSession {
  #running: Promise<void> = Promise.resolve()
  #queued = false
  readonly #changed = new Set<string>()
  #runs = 0
  #caughtUp = false
  #listing: Listing | undefined

  constructor(private readonly options: GenerationSessionOptions) {}

  /** How many generations ran. */
  get runs(): number {
    return this.#runs
  }

  /** The watcher reports every change: runs re-read only the changed files. */
  get caughtUp(): boolean {
    return this.#caughtUp
  }

  /** Resolves when no generation is running or queued. */
  get idle(): Promise<void> {
    return this.#running
  }

  /** A change (or, without files, a full run). Coalesces with others reported while one runs. */
  run(changed?: readonly string[]): Promise<void> {
    for (const file of changed ?? []) this.#changed.add(file)
    if (this.#queued) return this.#running
    this.#queued = true
    this.#running = this.#running.then(() => this.#generate())
    return this.#running
  }

  /** The watcher's first scan is done: regenerate whatever changed since the listing the outputs came from. */
  async catchUp(): Promise<void> {
    await this.#sync()
    this.#caughtUp = true
  }

  /** Resolves once the outputs are current with the file system as it is now. */
  async settle(): Promise<void> {
    for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
      if (!(await this.#sync())) return
    }
  }

  /** Runs what changed since the last listing; false when nothing had. */
  async #sync(): Promise<boolean> {
    await this.#running
    const listing = this.#listing
    if (!listing) return false
    const changed = differences(listing, await this.options.list())
    if (changed.length === 0) return false
    await this.run(changed)
    return true
  }

  async #generate(): Promise<void> {
    this.#queued = false
    const changed = [...this.#changed]
    this.#changed.clear()
    const first = this.#runs === 0
    const incremental = this.#caughtUp && !first
    try {
      let files: string[] | undefined
      if (incremental) this.#restat(changed)
      else {
        const at = Date.now()
        files = await this.options.list()
        this.#listing = new Map(files.map((f) => [f, { mtime: mtimeOf(f), at }]))
      }
      const result = await this.options.generate({ files, changed: first ? undefined : changed, incremental })
      this.#runs += 1
      this.options.onResult?.(result, first)
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)))
    }
  }

  /** An incremental run read these files as they are now. */
  #restat(changed: readonly string[]): void {
    const listing = this.#listing
    if (!listing) return
    const at = Date.now()
    for (const file of changed) {
      const mtime = mtimeOf(file)
      if (Number.isNaN(mtime)) listing.delete(file)
      else listing.set(file, { mtime, at })
    }
  }
}

/** Files added, removed or modified since `listing` was taken. */
function differences(listing: Listing, now: readonly string[]): string[] {
  const present = new Set(now)
  const changed = now.filter((f) => {
    const seen = listing.get(f)
    if (seen === undefined) return true
    const mtime = mtimeOf(f)
    return mtime !== seen.mtime || mtime >= seen.at - MTIME_SLACK_MS
  })
  return [...changed, ...[...listing.keys()].filter((f) => !present.has(f))]
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs
  } catch {
    return Number.NaN
  }
}
