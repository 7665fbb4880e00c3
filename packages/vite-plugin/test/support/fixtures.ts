/** Where the fixtures are, which there are, and the source files of one. */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const fixturesDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../fixtures')

/** Every fixture folder (temporary copies, `.tmp-*`, excluded). */
export function fixtureNames(): string[] {
  return readdirSync(fixturesDir)
    .filter((name) => !name.startsWith('.') && statSync(join(fixturesDir, name)).isDirectory())
    .sort()
}

/** Absolute paths of a fixture's TypeScript sources, generated files excluded. */
export function fixtureSources(name: string): string[] {
  const root = join(fixturesDir, name)
  return (readdirSync(join(root, 'src'), { recursive: true }) as string[])
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.gen.ts'))
    .map((f) => join(root, 'src', f))
    .sort()
}

/** The `mcp-bridge` bin, as users run it. */
export const bin = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../bin/mcp-bridge.js')

/** The repository's installed packages. */
export const repoNodeModules = resolve(fixturesDir, '../node_modules')

/**
 * A new project folder in the system's temp folder, never inside the repo. Its `node_modules` is
 * a folder of its own holding a link to each of the repo's packages, so `@mcp-bridge/runtime`,
 * `zod` and the rest resolve, while what a run writes there (Vite's cache, the loader's bundles)
 * stays with this project.
 */
export function tempProject(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `mcp-bridge-${prefix}-`))
  mkdirSync(join(dir, 'node_modules'))
  for (const entry of readdirSync(repoNodeModules)) {
    if (entry.startsWith('.')) continue // .vite, .mcp-bridge, .bin, .package-lock.json: the repo's own
    symlinkSync(join(repoNodeModules, entry), join(dir, 'node_modules', entry))
  }
  return dir
}

/** Temporary copies of fixtures (see `tempProject`); call `removeAll` in `afterAll`. */
export function fixtureCopies() {
  const made: string[] = []
  return {
    copy(name: string, prefix = name): string {
      const dir = tempProject(prefix)
      made.push(dir)
      cpSync(join(fixturesDir, name), dir, { recursive: true })
      return dir
    },
    removeAll: () => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })),
  }
}
