/**
 * Dev regeneration after one tool edit, as a running dev server does it (one generator kept
 * between runs, the watcher's changed file passed in): 1,000 tools, without and with their 1,000
 * plugin files (issue 33: the cost should not depend on the files that did not change). Interleaved
 * pairs of 7 edits each, medians of wall time and CPU; the ratio with ÷ without.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { McpBridgeGenerator, createBundledModuleLoader, resolveOptions } from '@mcp-bridge/vite-plugin/core'

const fixtures = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../fixtures')
const COUNT = 1000
const EDITS = 7

function corpus(name: string, plugins: boolean): string {
  const root = join(fixtures, `.tmp-bench-dev-${name}`)
  rmSync(root, { recursive: true, force: true })
  mkdirSync(join(root, 'src/tools'), { recursive: true })
  for (let i = 0; i < COUNT; i++) {
    writeFileSync(
      join(root, `src/tools/tool${i}.ts`),
      `import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\n\nexport const tool${i} = createMcpTool('tool_${i}')\n  .description('Tool ${i}')\n  .parameters(z.object({ q: z.string() }))\n  .elicits({ confirm: z.object({ ok: z.boolean() }) })\n  .execute(function* (p, ctx) {\n    const r = yield* ctx.elicit('confirm', { message: p.q })\n    return r.action\n  })\n`,
    )
    if (plugins) {
      writeFileSync(
        join(root, `src/tools/plugin${i}.ts`),
        `import { createPlugin } from '@mcp-bridge/runtime'\nimport { tool${i} } from './tool${i}.ts'\n\nexport const plugin${i} = createPlugin(tool${i})\n  .onElicit({\n    *confirm() {\n      return { action: 'accept', content: { ok: true } }\n    },\n  })\n  .build()\n`,
      )
    }
  }
  return root
}

async function session(name: string, plugins: boolean) {
  const root = corpus(name, plugins)
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
console.log(`dev regeneration after one tool edit, ${COUNT} tools: without plugin files ${m('without', 'ms').toFixed(0)} ms (CPU ${m('without', 'cpu').toFixed(0)} ms), with their ${COUNT} plugin files ${m('with', 'ms').toFixed(0)} ms (CPU ${m('with', 'cpu').toFixed(0)} ms)`)
console.log(`with ÷ without: ${(m('with', 'ms') / m('without', 'ms')).toFixed(2)}× wall, ${(m('with', 'cpu') / m('without', 'cpu')).toFixed(2)}× CPU (medians of ${EDITS} interleaved edits)`)
