/**
 * Dev regeneration after one tool edit, as a running dev server does it (one generator kept
 * between runs, the watcher's changed file passed in): 1,000 tools, without and with their 1,000
 * plugin files (issue 33: the cost should not depend on the files that did not change). Interleaved
 * pairs of 7 edits each, medians of wall time and CPU; the ratio with ÷ without.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { McpBridgeGenerator, createBundledModuleLoader, resolveOptions } from '@mcp-bridge/vite-plugin/core'
import { toolCorpus } from './support/corpus.ts'

const COUNT = 1000
const EDITS = 7

async function session(name: string, plugins: boolean) {
  const root = toolCorpus(`dev-${name}`, COUNT, { plugins })
  const loader = createBundledModuleLoader(root, { configFile: false })
  const generator = new McpBridgeGenerator(resolveOptions({}, root), loader)
  const first = await generator.generate()
  if (first.toolCount !== COUNT) throw new Error(`${name}: ${first.toolCount} tools`)
  await loader.warm()
  const file = join(root, 'src/tools/tool0.ts')
  let n = 0
  return {
    async edit(): Promise<{ ms: number; cpu: number }> {
      n += 1
      writeFileSync(file, readFileSync(file, 'utf8').replace(/\.description\('[^']*'\)/, `.description('Tool 0, edit ${n}')`))
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      const result = await generator.generate([file], { incremental: true })
      const ms = performance.now() - t0
      const cpu = process.cpuUsage(cpu0)
      if (!result.manifest.includes(`edit ${n}`)) throw new Error(`${name}: the edit was missed`)
      return { ms, cpu: (cpu.user + cpu.system) / 1000 }
    },
    async close() {
      await loader.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

const without = await session('tools', false)
const withPlugins = await session('plugins', true)
const times = { without: [] as Array<{ ms: number; cpu: number }>, with: [] as Array<{ ms: number; cpu: number }> }
for (let i = 0; i < EDITS; i++) {
  times.without.push(await without.edit())
  times.with.push(await withPlugins.edit())
}
await without.close()
await withPlugins.close()
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const m = (k: 'without' | 'with', f: 'ms' | 'cpu') => median(times[k].map((t) => t[f]))
console.log(
  `dev regeneration after one tool edit, ${COUNT} tools: without plugin files ${m('without', 'ms').toFixed(0)} ms (CPU ${m('without', 'cpu').toFixed(0)} ms), with their ${COUNT} plugin files ${m('with', 'ms').toFixed(0)} ms (CPU ${m('with', 'cpu').toFixed(0)} ms)`,
)
console.log(
  `with ÷ without: ${(m('with', 'ms') / m('without', 'ms')).toFixed(2)}× wall, ${(m('with', 'cpu') / m('without', 'cpu')).toFixed(2)}× CPU (medians of ${EDITS} interleaved edits)`,
)
