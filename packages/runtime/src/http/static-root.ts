/**
 * The folder the static server reads, with only files whose real path is inside the built client:
 * a symlink that points outside it (to `/etc/passwd`) or nowhere is left out, with a warning, and
 * never crashes start-up. sirv follows links and reads the whole tree when it starts, so a folder
 * with links is served through a mirror: a temporary folder of links to the files that pass, made
 * once at start (sirv's own view is a snapshot taken at start as well). A folder without links —
 * what `vite build` writes — is served as it is.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, sep } from 'node:path'

export interface StaticRoot {
  /** What to give the static server. */
  dir: string
  /** Links left out, as `link → why`. */
  skipped: string[]
  /** Remove the mirror, if one was made. */
  dispose(): void
}

export function staticRoot(dir: string): StaticRoot {
  const real = realpathSync(dir)
  const inside = (path: string) => path === real || path.startsWith(real + sep)
  const files: Array<{ name: string; target: string }> = []
  const skipped: string[] = []
  let links = 0
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry)
      const name = prefix ? `${prefix}/${entry}` : entry
      const stats = lstatSync(path)
      let target = path
      if (stats.isSymbolicLink()) {
        links++
        try {
          target = realpathSync(path)
        } catch {
          skipped.push(`${name} → points nowhere`)
          continue
        }
        if (!inside(target)) {
          skipped.push(`${name} → points outside the client folder (${target})`)
          continue
        }
      }
      // A link to a folder inside is walked like the folder; cycles end at the real-path check above.
      if (lstatSync(target).isDirectory()) {
        if (stats.isSymbolicLink()) continue // its real folder is walked where it is
        walk(path, name)
      } else files.push({ name, target })
    }
  }
  walk(real, '')
  if (links === 0) return { dir, skipped, dispose: () => {} }
  const mirror = mkdtempSync(join(tmpdir(), 'mcp-bridge-static-'))
  for (const { name, target } of files) {
    const at = join(mirror, name)
    mkdirSync(dirname(at), { recursive: true })
    symlinkSync(target, at)
  }
  return { dir: mirror, skipped, dispose: () => rmSync(mirror, { recursive: true, force: true }) }
}
