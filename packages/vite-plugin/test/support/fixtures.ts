/** Where the fixtures are, which there are, and the source files of one. */
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
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
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.gen\.ts$/.test(f))
    .map((f) => join(root, 'src', f))
    .sort()
}

/** The `mcp-bridge` bin, as users run it. */
export const bin = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../bin/mcp-bridge.js')

/**
 * Temporary copies of fixtures inside the repo (so `@mcp-bridge/runtime` and `zod` resolve);
 * call `removeAll` in `afterAll`.
 */
export function fixtureCopies() {
  const made: string[] = []
  return {
    copy(name: string, prefix = name): string {
      const dir = mkdtempSync(join(fixturesDir, `.tmp-${prefix}-`))
      made.push(dir)
      cpSync(join(fixturesDir, name), dir, { recursive: true })
      return dir
    },
    removeAll: () => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })),
  }
}
