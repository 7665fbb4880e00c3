#!/usr/bin/env node
/**
 * `npm run bench`: runs every benchmark under scripts/bench/ in its own Node process (with
 * --expose-gc for heap figures) and prints their figures. Benchmarks print; they never assert.
 *
 * Each benchmark runs in a process group of its own, and when it ends — done, failed, crashed or
 * interrupted with Ctrl-C — whatever is left in that group (a redis-server, a chat server, a
 * browser it started) is killed and named: a failed run leaves nothing running.
 */
import { spawn } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = join(dirname(fileURLToPath(import.meta.url)), 'bench')
const only = process.argv[2]
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort()

/** Processes still in group `pgid` (from /proc; empty where there is none). */
function leftIn(pgid) {
  try {
    return readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .flatMap((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
          // Fields after the command (which is in parentheses and may hold spaces): state ppid pgrp …
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
          return Number(fields[2]) === pgid ? [`${pid} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`] : []
        } catch {
          return []
        }
      })
  } catch {
    return []
  }
}

let current
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (current) killGroup(current.pid)
    process.exit(130)
  })
}

function killGroup(pgid) {
  try {
    process.kill(-pgid, 'SIGKILL')
  } catch {
    // ESRCH: nothing left in it.
  }
}

let failed = 0
for (const file of files) {
  console.log(`\n## ${file}`)
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, file)], { stdio: 'inherit', detached: true })
  current = child
  const code = await new Promise((resolve) => child.once('exit', (status, signal) => resolve(status ?? signal)))
  current = undefined
  // tsx's esbuild service outlives a crashed benchmark; it is stopped too, without a word.
  const left = leftIn(child.pid).filter((p) => !p.endsWith(' esbuild'))
  killGroup(child.pid)
  if (left.length) {
    console.log(`(${file} left ${left.length} process${left.length === 1 ? '' : 'es'} running — stopped now: ${left.join(', ')})`)
  }
  if (code !== 0) {
    failed += 1
    console.log(`(${file} failed: ${code})`)
  }
}
process.exit(failed ? 1 : 0)
