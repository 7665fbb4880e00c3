/**
 * Vite plugin figures (issues 6 and 18): `generate` on synthetic projects of 10, 100 and 1,000
 * tool files, each with its plugin file (`support/corpus.ts`) — cold (the loader's start included), with the modules loaded as one bundle (what
 * the plugin and CLI do) against one by one through Vite's module runner, and after one file
 * changes — the CLI as a fresh process, the split per file, and the time the plugin adds to a
 * `vite build` of the playground and of a generated app.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { spawnSync } from 'node:child_process'
import { resolveConfig } from 'vite'
import { McpBridgeGenerator, createBundledModuleLoader, resolveOptions } from '@mcp-bridge/vite-plugin/core'
import { splitModule } from '@mcp-bridge/vite-plugin/core'
import { fixtures, toolCorpus } from './support/corpus.ts'

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now()
  const value = await fn()
  return [performance.now() - t0, value]
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * A cold generation in a fresh process, on the built packages as users run them (plain Node, no
 * TypeScript loader: on Node 20 a loader's hooks slow every later import): the tools' own
 * imports (zod, the runtime) are loaded by the generation, as in a CI run.
 */
const COLD_CHILD = `
const [root, how] = process.argv.slice(1)
const { McpBridgeGenerator, createBundledModuleLoader, createViteModuleLoader, resolveOptions } = await import('@mcp-bridge/vite-plugin/core')
const t0 = performance.now()
const loader = how === 'bundle' ? createBundledModuleLoader(root, { configFile: false }) : await createViteModuleLoader(root, { configFile: false })
const result = await new McpBridgeGenerator(resolveOptions({}, root), loader).generate()
const ms = performance.now() - t0
await loader.close()
console.log(JSON.stringify({ ms, tools: result.toolCount }))
`

function coldProcess(root: string, how: 'bundle' | 'runner', count: number): number {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', COLD_CHILD, root, how], { cwd: root, encoding: 'utf8', timeout: 300_000 })
  if (run.status !== 0) throw new Error(`cold generation (${how}) failed:\n${run.stderr}`)
  const { ms, tools } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { ms: number; tools: number }
  if (tools !== count) throw new Error(`expected ${count} tools, got ${tools} (${how})`)
  return ms
}

// `generate.bench.ts builds` runs the vite build figures alone (they vary most between runs).
const buildsOnly = process.argv[2] === 'builds'
for (const count of buildsOnly ? [] : [10, 100, 1000]) {
  const root = toolCorpus(`generate-${count}`, count)
  // What the plugin and the CLI do (the modules built and loaded as one bundle) against loading
  // them one by one through Vite's module runner (before): each in a fresh process, interleaved
  // pairs, medians of 5.
  const bundled: number[] = []
  const runner: number[] = []
  for (let round = 0; round < 5; round++) {
    bundled.push(coldProcess(root, 'bundle', count))
    runner.push(coldProcess(root, 'runner', count))
  }
  const loader = createBundledModuleLoader(root, { configFile: false })
  const generator = new McpBridgeGenerator(resolveOptions({}, root), loader)
  await generator.generate()
  // One file changes; regeneration as the dev server does it once its watcher is running (same
  // generator, only that file re-read and re-run by the module runner, which the dev server
  // starts after its first generation).
  await loader.warm()
  const changed = join(root, 'src/tools/tool0.ts')
  writeFileSync(changed, `// changed\n${readFileSync(changed, 'utf8').replace("'Tool 0'", "'Tool zero'")}`)
  const [regen, again] = await time(() => generator.generate([changed], { incremental: true }))
  if (!again.manifest.includes('Tool zero')) throw new Error('regeneration missed the change')
  await loader.close()
  console.log(
    `generate ${String(count).padStart(4)} tools + plugin files: cold ${(median(bundled) / 1000).toFixed(2)} s (module runner one by one: ${(median(runner) / 1000).toFixed(2)} s, ` +
      `${(median(bundled) / median(runner)).toFixed(2)}×; each in a fresh process, medians of 5 interleaved pairs), after one file changed ${regen.toFixed(0)} ms`,
  )
  if (count === 10) cliProcess(root)
  if (count === 100) splitPerFile(root, count)
  rmSync(root, { recursive: true, force: true })
}

/**
 * `mcp-bridge generate --no-cache` as CI runs it: a fresh process, wall clock to exit, against
 * `node -e ""` (Node's own start) measured in the same run; medians of 5 interleaved pairs.
 */
function cliProcess(root: string): void {
  const bin = resolve(fixtures, '../packages/vite-plugin/bin/mcp-bridge.js')
  const wall = (args: string[]) => {
    const t0 = performance.now()
    const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' })
    if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stdout}${run.stderr}`)
    return performance.now() - t0
  }
  const node: number[] = []
  const cli: number[] = []
  for (let i = 0; i < 5; i++) {
    node.push(wall(['-e', '']))
    cli.push(wall([bin, 'generate', '--no-cache']))
  }
  console.log(
    `mcp-bridge generate --no-cache, 10 tool files, fresh process: ${median(cli).toFixed(0)} ms wall (node -e "" alone: ${median(node).toFixed(0)} ms; median of 5 pairs; target ≤ 600 ms)`,
  )
}

/** The split (client side: execute bodies stubbed, imports pruned, source map) per tool file. */
function splitPerFile(root: string, count: number): void {
  const files = Array.from({ length: count }, (_, i) => join(root, `src/tools/tool${i}.ts`))
  const sources = files.map((f) => readFileSync(f, 'utf8'))
  for (let i = 0; i < count; i++) splitModule(sources[i]!, files[i]!, 'client') // warm the parser
  const rounds = 5
  const t0 = performance.now()
  for (let r = 0; r < rounds; r++) for (let i = 0; i < count; i++) splitModule(sources[i]!, files[i]!, 'client')
  const perFile = ((performance.now() - t0) / (rounds * count)) * 1000
  console.log(`split (client, with source map): ${perFile.toFixed(0)} µs per tool file (${rounds}×${count} files; target ≤ 300 µs)`)
}

/**
 * The plugin's share of `vite build` on the playground, timed as users run it: the CLI in a
 * fresh Node process, wall clock to exit. "Without" builds the same app from a copy of its
 * config with the plugin taken out (so the plugin is not even imported); the committed
 * generated registries let that build succeed. "With" is the playground's plugin call without
 * its `server` option, so both build the client only and the difference is the plugin's work
 * (the server build `server` adds is the app's own build, not overhead). "With, no cache"
 * deletes the plugin's build cache first (a fresh checkout); "with, unchanged" follows a build
 * of the same sources.
 */
const playground = resolve(fixtures, '../playground')
const viteBin = resolve(fixtures, '../node_modules/vite/bin/vite.js')
const pluginCall = /\n(?:\s*\/\/[^\n]*\n)*\s*mcpBridge\(\{ exclude: \['src\/server\/\*\*'\], server: 'src\/server\/app\.ts'[^\n]*\}\),/
const configSource = readFileSync(join(playground, 'vite.config.ts'), 'utf8')
if (!pluginCall.test(configSource)) throw new Error(`playground/vite.config.ts no longer contains the mcpBridge({ exclude, server, ... }) call this benchmark edits; update it`)
const withoutConfig = join(playground, '.tmp-bench-without-plugin.vite.config.ts')
const withConfig = join(playground, '.tmp-bench-with-plugin.vite.config.ts')
writeFileSync(withoutConfig, configSource.replace(pluginCall, '').replace(/^import \{ mcpBridge \}.*\n/m, ''))
// The playground's options but `server` (the client build only), so the generated files it writes stay the playground's own.
writeFileSync(withConfig, configSource.replace(pluginCall, "\n    mcpBridge({ exclude: ['src/server/**'], apps: { include: ['src/styles.css'] } }),"))
const cacheFile = join((await resolveConfig({ root: playground, logLevel: 'silent' }, 'build')).cacheDir, 'mcp-bridge-build.json')
const outDir = join(playground, '.tmp-bench-dist')

/** `vite build` without the plugin, with it and no build cache, and with it again (sources unchanged): interleaved triples. */
function buildOverhead(label: string, configs: { without: string; with: string; cacheFile: string; cwd: string; outDir: string; touch: string }, rounds: number): void {
  const build = (config: string) => {
    const t0 = performance.now()
    const run = spawnSync(process.execPath, [viteBin, 'build', '-c', config, '--outDir', configs.outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: configs.cwd,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 180_000,
    })
    if (run.status !== 0) throw new Error(`vite build failed (${config}):\n${run.stderr}${run.stdout}`)
    return performance.now() - t0
  }
  const without: number[] = []
  const cold: number[] = []
  const unchanged: number[] = []
  const oneChanged: number[] = []
  const original = readFileSync(configs.touch, 'utf8')
  build(configs.with) // writes the generated files the build without the plugin imports; warms the OS file cache
  build(configs.without)
  for (let i = 0; i < rounds; i++) {
    without.push(build(configs.without))
    // No build cache: neither the whole-tree result nor the per-module results (a fresh checkout).
    rmSync(configs.cacheFile, { force: true })
    rmSync(join(dirname(configs.cacheFile), 'mcp-bridge-modules.json'), { force: true })
    cold.push(build(configs.with))
    unchanged.push(build(configs.with))
    // One tool file's code changes (a comment): the whole-tree result is stale, the other modules' results are kept.
    writeFileSync(configs.touch, `${original}\n// bench round ${i}\n`)
    oneChanged.push(build(configs.with))
  }
  writeFileSync(configs.touch, original)
  const added = (xs: number[]) => {
    const ms = median(xs) - median(without)
    const sign = ms < 0 ? '−' : '+'
    return `${sign}${Math.abs(ms).toFixed(0)} ms, ${sign}${Math.abs((ms / median(without)) * 100).toFixed(0)} %`
  }
  console.log(
    `vite build of ${label} (CLI, fresh process, median of ${rounds}): ${median(without).toFixed(0)} ms without the plugin; ` +
      `with it ${median(unchanged).toFixed(0)} ms when the sources are unchanged since the last build (${added(unchanged)}), ` +
      `${median(oneChanged).toFixed(0)} ms after one tool file changed (${added(oneChanged)}), ${median(cold).toFixed(0)} ms with no build cache (${added(cold)})`,
  )
}

try {
  buildOverhead('the playground', { without: withoutConfig, with: withConfig, cacheFile, cwd: playground, outDir, touch: join(playground, 'src/tools/choose-color/tool.ts') }, 7)
} finally {
  rmSync(withoutConfig, { force: true })
  rmSync(withConfig, { force: true })
  rmSync(outDir, { recursive: true, force: true })
}

/**
 * A generated app of 200 React components and 50 tools with plugins (each with a component of
 * its own): the plugin's share of a build of a mid-sized app, not a tool-heavy demo.
 */
function generatedApp(): string {
  const root = join(fixtures, '.tmp-bench-app')
  rmSync(root, { recursive: true, force: true })
  mkdirSync(join(root, 'src/components'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n')
  for (let i = 0; i < 200; i++) {
    writeFileSync(
      join(root, `src/components/Card${i}.tsx`),
      `import { useState } from 'react'\n\nexport function Card${i}({ title }: { title: string }) {\n  const [open, setOpen] = useState(false)\n  return (\n    <section className="card-${i}">\n      <h2 onClick={() => setOpen(!open)}>{title} #${i}</h2>\n      {open && <p>Details for card ${i}: {title.length * ${i}} items</p>}\n    </section>\n  )\n}\n`,
    )
  }
  for (let i = 0; i < 50; i++) {
    const dir = join(root, `src/tools/t${i}`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      join(dir, 'tool.ts'),
      `import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\n\nexport const tool${i} = createMcpTool('tool_${i}')\n  .description('Tool ${i}')\n  .parameters(z.object({ q: z.string() }))\n  .elicits({ pick: z.object({ choice: z.enum(['a', 'b', 'c']), note: z.string().max(${40 + i}).optional() }) })\n  .execute(function* (p, ctx) {\n    const r = yield* ctx.elicit('pick', { message: p.q })\n    return r.action === 'accept' ? r.content.choice : 'none'\n  })\n`,
    )
    writeFileSync(
      join(dir, 'plugin.tsx'),
      `import { createPlugin, type RenderedProps } from '@mcp-bridge/runtime'\nimport { tool${i} } from './tool.ts'\n\nfunction Pick${i}({ onRespond }: RenderedProps<{ choice: 'a' | 'b' | 'c' }>) {\n  return <button onClick={() => onRespond({ choice: 'a' })}>Pick ${i}</button>\n}\n\nexport const plugin${i} = createPlugin(tool${i})\n  .onElicit({\n    *pick(_req, ctx) {\n      return { action: 'accept', content: yield* ctx.render(Pick${i}, {}) }\n    },\n  })\n  .build()\n`,
    )
  }
  const cards = Array.from({ length: 200 }, (_, i) => i)
  writeFileSync(
    join(root, 'src/main.tsx'),
    [
      "import { createRoot } from 'react-dom/client'",
      "import { clientPlugins } from './mcp-bridge/client.gen.ts'",
      ...cards.map((i) => `import { Card${i} } from './components/Card${i}.tsx'`),
      '',
      "createRoot(document.getElementById('root')!).render(",
      '  <main data-plugins={clientPlugins.length}>',
      ...cards.map((i) => `    <Card${i} title="Card" />`),
      '  </main>,',
      ')',
      '',
    ].join('\n'),
  )
  // The React plugin by its package name, as an app imports it. (By absolute path Vite bundles it
  // into the config, and its `import.meta.resolve` makes Vite register a module hook: on Node 20
  // every later import in the build then goes through a loader thread, ~2× slower, with or
  // without mcp-bridge — a cost of that config, not of the plugin.)
  writeFileSync(join(root, 'vite.config.without.ts'), `import react from '@vitejs/plugin-react'\nexport default { plugins: [react()] }\n`)
  writeFileSync(
    join(root, 'vite.config.with.ts'),
    `import react from '@vitejs/plugin-react'\nimport { mcpBridge } from '@mcp-bridge/vite-plugin'\nexport default { plugins: [react(), mcpBridge()] }\n`,
  )
  return root
}

const app = generatedApp()
try {
  const appCache = join((await resolveConfig({ root: app, configFile: false, logLevel: 'silent' }, 'build')).cacheDir, 'mcp-bridge-build.json')
  buildOverhead(
    'a generated app (200 components, 50 tools with plugins)',
    {
      without: join(app, 'vite.config.without.ts'),
      with: join(app, 'vite.config.with.ts'),
      cacheFile: appCache,
      cwd: app,
      outDir: join(app, 'dist'),
      touch: join(app, 'src/tools/t0/tool.ts'),
    },
    5,
  )
} finally {
  rmSync(app, { recursive: true, force: true })
}
