/**
 * The files `include` names, once each. A directory reached through a symlink (a shared folder,
 * or a loop such as `src/again -> .`) can name one file by several paths; each real file is kept
 * once, under its first path in sorted order, so it is never discovered — or reported as a
 * duplicate tool name — twice.
 */
import { realpathSync } from 'node:fs'
import { readFileSync } from 'node:fs'
import { glob } from 'tinyglobby'
import { mayContainTools } from './patterns.ts'
import type { ResolvedOptions } from './options.ts'

export async function includedFiles(options: ResolvedOptions, extraIgnore: readonly string[] = []): Promise<string[]> {
  const outDir = options.outDir.replace(/\\/g, '/')
  const found = await glob(options.include, {
    cwd: options.root,
    absolute: true,
    ignore: [...options.exclude, '**/node_modules/**', `${outDir}/**`, ...extraIgnore],
  })
  const seen = new Set<string>()
  return found.sort().filter((file) => {
    // The native realpath (one system call) — the JS one walks every path component: 20 ms per
    // listing at 1,000 files, paid on every regeneration.
    const real = realpathSync.native(file)
    if (seen.has(real)) return false
    seen.add(real)
    return true
  })
}

/** The included source files a generation reads (declaration files never hold tools). */
export function listSources(options: ResolvedOptions): Promise<string[]> {
  return includedFiles(options, ['**/*.d.ts'])
}

/** The included source files that may hold tools (a cheap text pre-scan skips the rest). */
export async function toolSourceFiles(options: ResolvedOptions): Promise<string[]> {
  return (await listSources(options)).filter(mayHoldTools)
}

/** The pre-scan (`patterns.ts`) on a file's text: can it hold a tool or plugin at all? */
export function mayHoldTools(file: string): boolean {
  return mayContainTools(readFileSync(file, 'utf8'))
}
