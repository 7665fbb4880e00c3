/**
 * What every page of an app with tools imports, pre-bundled by Vite's dependency optimizer from
 * the start: the generated client registry reaches `@mcp-bridge/runtime` and `zod`, the page a
 * React entry. Without this a framework whose entries the optimizer's scan does not follow (React
 * Router's) finds them on the first page load, re-optimizes, and that page reloads with "Outdated
 * Optimize Dep" errors in its console. Only packages installed from a registry are listed: a
 * linked workspace package stays source (as Vite treats it), and a React entry only with React.
 */
import { existsSync, realpathSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'

const ALWAYS = ['@mcp-bridge/runtime', '@mcp-bridge/runtime/errors', 'zod']
const WITH_REACT = ['@mcp-bridge/runtime/react', '@mcp-bridge/runtime/ai-sdk/react']

/** The folder a package is installed in, looking up from `root` as Node does; undefined if none. */
function installed(root: string, name: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

const fromRegistry = (root: string, name: string) => {
  const dir = installed(root, name)
  return dir !== undefined && realpathSync(dir).includes(`${sep}node_modules${sep}`)
}

export function prebundledClientDeps(root: string): string[] {
  if (!fromRegistry(root, '@mcp-bridge/runtime')) return []
  return [...ALWAYS.filter((name) => name !== 'zod' || fromRegistry(root, 'zod')), ...(installed(root, 'react') ? WITH_REACT : [])]
}
