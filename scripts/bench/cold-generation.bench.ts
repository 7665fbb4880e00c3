/**
 * Cold generation as CI runs it — a fresh process, no cache — at 1,000 and 3,000 tools, each with
 * its plugin file: mcp-bridge (discovery, every tool module run, every schema checked, the
 * registries and manifest written; `support/cold-child.mjs`) against sweatpants' method and the
 * regex floor (`support/regex-registry.ts`), each in a fresh process of its own, interleaved.
 * Medians of time and of peak RSS (the process's maxRSS, Node's own ~45 MiB included).
 */
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { toolCorpus } from './support/corpus.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const sizes = (process.env.BENCH_TOOLS ?? '1000,3000').split(',').map(Number)
const child = (name: string) => fileURLToPath(new URL(`./support/${name}`, import.meta.url))
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

interface Run {
  ms: number
  tools: number
  errors: number
  peakMiB: number
}

function run(args: string[], root: string, count: number): Run {
  const out = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 300_000 })
  if (out.status !== 0) throw new Error(`${args.join(' ')} failed (${out.status ?? out.signal}):\n${out.stderr}`)
  const result = JSON.parse(out.stdout.trim().split('\n').pop()!) as Run
  if (result.tools !== count || result.errors) throw new Error(`${args.join(' ')}: ${result.tools} tools, ${result.errors} errors (expected ${count}, 0)`)
  return result
}

for (const count of sizes) {
  const root = toolCorpus(`cold-${count}`, count)
  try {
    const runs = { bridge: [] as Run[], sweatpants: [] as Run[], floor: [] as Run[] }
    for (let round = 0; round < ROUNDS; round++) {
      runs.bridge.push(run([child('cold-child.mjs'), root], root, count))
      runs.sweatpants.push(run(['--import', 'tsx', child('cold-baseline-child.ts'), root, 'sweatpants'], root, count))
      runs.floor.push(run(['--import', 'tsx', child('cold-baseline-child.ts'), root, 'floor'], root, count))
    }
    const ms = (k: keyof typeof runs) => median(runs[k].map((r) => r.ms))
    const mib = (k: keyof typeof runs) => median(runs[k].map((r) => r.peakMiB))
    console.log(
      `cold generation, ${count} tools + ${count} plugin files, fresh process (medians of ${ROUNDS} interleaved): ` +
        `mcp-bridge ${ms('bridge').toFixed(0)} ms, peak RSS ${mib('bridge').toFixed(0)} MiB (${((mib('bridge') * 1024) / count).toFixed(0)} KiB per tool); ` +
        `sweatpants' method ${ms('sweatpants').toFixed(0)} ms (${mib('sweatpants').toFixed(0)} MiB); regex floor ${ms('floor').toFixed(0)} ms; ` +
        `mcp-bridge ÷ sweatpants ${(ms('bridge') / ms('sweatpants')).toFixed(2)}×, ÷ floor ${(ms('bridge') / ms('floor')).toFixed(1)}×`,
    )
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
