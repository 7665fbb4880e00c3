/**
 * The dev watcher reports changes only once its first scan is done. A tool file written between
 * the dev server's start and that moment (a busy machine makes the window wide; a script or a
 * test writes right away) has no event, and its change would be lost until the next edit. So the
 * included files are listed when the first generation starts, and again when the watcher is
 * ready: whatever appeared, disappeared or was modified in between is regenerated then.
 */
import { statSync } from 'node:fs'
import type { FSWatcher } from 'vite'
import type { ResolvedOptions } from './options.ts'
import { includedFiles } from './source-files.ts'

export interface SourceSnapshot {
  at: number
  files: ReadonlySet<string>
}

export async function snapshotSources(options: ResolvedOptions): Promise<SourceSnapshot> {
  const at = Date.now()
  return { at, files: new Set(await includedFiles(options, ['**/*.d.ts'])) }
}

/** Files added, removed or modified since `before`. */
export async function changedSince(options: ResolvedOptions, before: SourceSnapshot): Promise<string[]> {
  const now = new Set(await includedFiles(options, ['**/*.d.ts']))
  const changed = [...now].filter((f) => !before.files.has(f) || modifiedAfter(f, before.at))
  return [...changed, ...[...before.files].filter((f) => !now.has(f))]
}

function modifiedAfter(file: string, at: number): boolean {
  try {
    // A little slack: file systems keep mtimes coarser than Date.now().
    return statSync(file).mtimeMs >= at - 50
  } catch {
    return true
  }
}

/** Resolves when the watcher's first scan is done (now, if it already is). */
export function watcherReady(watcher: FSWatcher): Promise<void> {
  // chokidar's own flag: `ready` is emitted once, and this may run after it.
  if ((watcher as FSWatcher & { _readyEmitted?: boolean })._readyEmitted) return Promise.resolve()
  return new Promise((resolve) => watcher.once('ready', () => resolve()))
}
