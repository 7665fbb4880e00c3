#!/usr/bin/env node
/**
 * `npm run bench`: runs every benchmark under scripts/bench/ in its own Node process (with
 * --expose-gc for heap figures) and prints their figures. Benchmarks print; they never assert.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = join(dirname(fileURLToPath(import.meta.url)), 'bench')
const only = process.argv[2]
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort()
let failed = 0
for (const file of files) {
  console.log(`\n## ${file}`)
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, file)], { stdio: 'inherit' })
  if (run.status !== 0) failed += 1
}
process.exit(failed ? 1 : 0)
