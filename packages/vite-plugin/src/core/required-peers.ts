/**
 * The runtime's required peers (`effection`, `zod`, …), checked where the app resolves them when
 * its config loads. npm leaves peers out under `--legacy-peer-deps` (often set in an app's
 * `.npmrc`); the first sign would otherwise be a bundler error deep in the build ("failed to
 * resolve import "effection" from …/plugin-executor.js") that names no fix.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { McpBridgeError } from '@mcp-bridge/runtime/build'

/** A required peer of the runtime is not installed in the app. */
export class PeerMissingError extends McpBridgeError {
  readonly code = 'PEER_MISSING'
  constructor(missing: ReadonlyArray<{ name: string; range: string }>) {
    const names = missing.map((p) => `\`${p.name}\``).join(' and ')
    super(
      `mcp-bridge needs ${names}, required by @mcp-bridge/runtime, and this app does not have ${missing.length === 1 ? 'it' : 'them'} installed ` +
        '(an install with `--legacy-peer-deps`, or `legacy-peer-deps=true` in `.npmrc`, leaves peers out). ' +
        `Install: npm install ${missing.map((p) => `${p.name}@"${p.range}"`).join(' ')}`,
    )
  }
}

/** The runtime's `peerDependencies` that are not optional, from its installed package.json. */
function requiredPeers(): Array<{ name: string; range: string }> {
  for (let dir = dirname(fileURLToPath(import.meta.resolve('@mcp-bridge/runtime/build'))); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (!existsSync(manifest)) continue
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name?: string
      peerDependencies?: Record<string, string>
      peerDependenciesMeta?: Record<string, { optional?: boolean }>
    }
    if (pkg.name !== '@mcp-bridge/runtime') continue
    return Object.entries(pkg.peerDependencies ?? {})
      .filter(([name]) => !pkg.peerDependenciesMeta?.[name]?.optional)
      .map(([name, range]) => ({ name, range }))
  }
  return []
}

/** Whether `node_modules/<name>` is in `root` or a folder above it, where Node looks (whatever the package exports). */
function installedFrom(root: string, name: string): boolean {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true
    if (dirname(dir) === dir) return false
  }
}

/** Throws `PeerMissingError` naming every required peer the app at `root` cannot resolve. */
export function assertRequiredPeers(root: string): void {
  // Yarn PnP has no node_modules to look in: its own resolution says what is missing.
  if (process.versions.pnp) return
  const missing = requiredPeers().filter(({ name }) => !installedFrom(root, name))
  if (missing.length) throw new PeerMissingError(missing)
}
