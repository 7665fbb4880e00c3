/**
 * Whether the app's `@mcp-bridge/runtime` pairs with this plugin (see `RuntimeVersionMismatchError`):
 * both versions are read from the installed `package.json` files, found from the modules loaded.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pairOf, RuntimeVersionMismatchError } from './errors.ts'

/** The version in the nearest `package.json` named `name` above `file`. */
function versionAbove(file: string, name: string): string | undefined {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (!existsSync(manifest)) continue
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string }
    if (pkg.name === name) return pkg.version
  }
  return undefined
}

/** Whether `runtime` is a version that pairs with `plugin` (same minor at 0.x, same major after). */
export function pairs(plugin: string, runtime: string): boolean {
  const prefix = pairOf(plugin).replace(/x$/, '')
  return runtime.startsWith(prefix)
}

/** Throws `RuntimeVersionMismatchError` when the installed runtime is of another release. */
export function assertRuntimePairs(): void {
  const plugin = versionAbove(fileURLToPath(import.meta.url), '@mcp-bridge/vite-plugin')
  const runtime = versionAbove(fileURLToPath(import.meta.resolve('@mcp-bridge/runtime/build')), '@mcp-bridge/runtime')
  if (plugin && runtime && !pairs(plugin, runtime)) throw new RuntimeVersionMismatchError(plugin, runtime)
}
