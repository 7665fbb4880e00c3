/** Where the fixtures are, which there are, and the source files of one. */
import { readdirSync, statSync } from 'node:fs'
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
