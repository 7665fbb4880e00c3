/**
 * A running dev server after one tool edit, as a user sees it: the file is written, Vite's watcher
 * reports it, and what is generated from it on disk is updated (mcp-bridge: the manifest, written
 * with the registries; the floor: its registry). 1,000 tools with their 1,000 plugin
 * files; the same edit (the tool renamed) in three dev servers on three copies of the corpus: with
 * mcp-bridge, with sweatpants' method and with the regex floor (`support/regex-registry.ts`: no
 * module runs, no schema is checked). Interleaved edits; medians of wall time (write → file
 * updated) and of the process's CPU over the same span (the watcher's own work included: Vite's
 * watcher reads the whole folder again on each event, in every server alike).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createServer, type ViteDevServer } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin'
import { toolCorpus, toolSource } from './support/corpus.ts'
import { REGEX_REGISTRY, regexRegistryPlugin } from './support/regex-registry.ts'

const COUNT = Number(process.env.BENCH_TOOLS ?? 1000)
const EDITS = 9
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

interface Side {
  label: string
  root: string
  server: ViteDevServer
  output: string
}

async function start(label: 'bridge' | 'sweatpants' | 'floor'): Promise<Side> {
  const withBridge = label === 'bridge'
  const root = toolCorpus(`dev-server-${label}`, COUNT)
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    server: { middlewareMode: true, hmr: false },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [withBridge ? mcpBridge() : regexRegistryPlugin(label)],
  })
  const plugin = server.config.plugins.find((p) => p.name === 'mcp-bridge' || p.name.startsWith('bench-regex-registry'))!
  await (plugin.api as { whenWatching(): Promise<void> }).whenWatching()
  return { label, root, server, output: join(root, withBridge ? 'src/mcp-bridge/mcp-tools.json' : REGEX_REGISTRY) }
}

/** Write the edit, then poll the output until it names the tool's new name. */
async function edit(side: Side, n: number): Promise<{ ms: number; cpu: number }> {
  const name = `tool_0_edit_${side.label}_${n}`
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  writeFileSync(join(side.root, 'src/tools/tool0.ts'), toolSource(0, name))
  const deadline = t0 + 30_000
  while (!readFileSync(side.output, 'utf8').includes(name)) {
    if (performance.now() > deadline) throw new Error(`${side.label}: the edit did not reach ${side.output} in 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  const ms = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  return { ms, cpu: (cpu.user + cpu.system) / 1000 }
}

const sides: Side[] = []
try {
  sides.push(await start('bridge'), await start('sweatpants'), await start('floor'))
  const [bridge, sweatpants, floor] = sides as [Side, Side, Side]
  const times = new Map<Side, Array<{ ms: number; cpu: number }>>(sides.map((s) => [s, []]))
  // One edit each first: the module runner and the OS caches warm, as after a user's first save.
  for (const side of sides) await edit(side, 0)
  for (let n = 1; n <= EDITS; n++) {
    // Each round in another order, so no side always follows the same one.
    for (const side of n % 3 === 0 ? sides : n % 3 === 1 ? [floor, bridge, sweatpants] : [sweatpants, floor, bridge]) {
      times.get(side)!.push(await edit(side, n))
      await new Promise((resolve) => setTimeout(resolve, 100)) // the watcher's own follow-up events settle
    }
  }
  const m = (side: Side, f: 'ms' | 'cpu') => median(times.get(side)!.map((t) => t[f]))
  const figure = (side: Side) => `${m(side, 'ms').toFixed(0)} ms (CPU ${m(side, 'cpu').toFixed(0)} ms)`
  const ratio = (side: Side) => `${(m(bridge, 'ms') / m(side, 'ms')).toFixed(2)}× wall, ${(m(bridge, 'cpu') / m(side, 'cpu')).toFixed(2)}× CPU`
  console.log(
    `dev server, one tool edit at ${COUNT} tools with ${COUNT} plugin files, write → generated files updated (medians of ${EDITS} interleaved edits): ` +
      `mcp-bridge ${figure(bridge)}, sweatpants' method ${figure(sweatpants)}, regex floor ${figure(floor)}; ` +
      `mcp-bridge ÷ sweatpants ${ratio(sweatpants)} (target ≤ 1.0×); ÷ floor ${ratio(floor)}`,
  )
} finally {
  for (const side of sides) {
    await side.server.close()
    rmSync(side.root, { recursive: true, force: true })
  }
}
