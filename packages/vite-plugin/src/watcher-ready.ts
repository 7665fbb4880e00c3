/** Resolves when a Vite dev server's watcher has finished its first scan (now, if it already has). */
import type { FSWatcher } from 'vite'

export function watcherReady(watcher: FSWatcher): Promise<void> {
  // chokidar's own flag: `ready` is emitted once, and this may run after it.
  if ((watcher as FSWatcher & { _readyEmitted?: boolean })._readyEmitted) return Promise.resolve()
  return new Promise((resolve) => watcher.once('ready', () => resolve()))
}
