/**
 * Vite plugin figures (issue 6): `generate` on synthetic projects of 10, 100 and 1,000 tool
 * files — cold (including the loader's Vite server start) and after one file changes — and the
 * time the plugin adds to a `vite build` (the split fixture app stands in until the playground exists).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, resolveConfig } from 'vite'
import { McpBridgeGenerator, createViteModuleLoader, mcpBridge } from '@mcp-bridge/vite-plugin'
import { resolveOptions } from '../../packages/vite-plugin/src/core/options.ts'

const fixtures = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../fixtures')

function synthetic(count: number): string {
  const root = join(fixtures, `.tmp-bench-${count}`)
  rmSync(root, { recursive: true, force: true })
  mkdirSync(join(root, 'src/tools'), { recursive: true })
  for (let i = 0; i < count; i++) {
    writeFileSync(
      join(root, `src/tools/tool${i}.ts`),
      `import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\n\nexport const tool${i} = createMcpTool('tool_${i}')\n  .description('Tool ${i}')\n  .parameters(z.object({ q: z.string() }))\n  .elicits({ confirm: z.object({ ok: z.boolean(), note: z.string().max(${100 + i}).optional() }) })\n  .execute(function* (p, ctx) {\n    const r = yield* ctx.elicit('confirm', { message: p.q })\n    return r.action\n  })\n`,
    )
  }
  return root
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now()
  const value = await fn()
  return [performance.now() - t0, value]
}

for (const count of [10, 100, 1000]) {
  const root = synthetic(count)
  const options = resolveOptions({}, root)
  let loader!: Awaited<ReturnType<typeof createViteModuleLoader>>
  let generator!: McpBridgeGenerator
  // Cold: the loader's Vite server starts, every file is parsed and every module loaded.
  const [cold, result] = await time(async () => {
    loader = await createViteModuleLoader(root, { configFile: false })
    generator = new McpBridgeGenerator(options, loader)
    return generator.generate()
  })
  if (result.toolCount !== count) throw new Error(`expected ${count} tools, got ${result.toolCount}`)
  // One file changes; regeneration as the dev server does it (same generator, that file re-read).
  const changed = join(root, 'src/tools/tool0.ts')
  writeFileSync(changed, `// changed\n${readFileSync(changed, 'utf8').replace("'Tool 0'", "'Tool zero'")}`)
  const [regen, again] = await time(() => generator.generate([changed]))
  if (!again.manifest.includes('Tool zero')) throw new Error('regeneration missed the change')
  await loader.close()
  console.log(`generate ${String(count).padStart(4)} tool files: cold ${(cold / 1000).toFixed(2)} s, after one file changed ${regen.toFixed(0)} ms`)
  rmSync(root, { recursive: true, force: true })
}

async function buildTime(withPlugin: boolean, cold = true): Promise<number> {
  const root = join(fixtures, 'split-app')
  if (cold) rmSync(join((await resolveConfig({ root, configFile: false }, 'build')).cacheDir, 'mcp-bridge-build.json'), { force: true })
  const outDir = join(fixtures, `.tmp-bench-build-${withPlugin}`)
  const [ms] = await time(() =>
    build({ root, configFile: false, logLevel: 'silent', plugins: withPlugin ? [mcpBridge()] : [], build: { outDir, emptyOutDir: true, rollupOptions: { input: join(root, 'src/client.ts') } } }),
  )
  rmSync(outDir, { recursive: true, force: true })
  return ms
}
await buildTime(false)
const without: number[] = []
const cold: number[] = []
const warm: number[] = []
for (let i = 0; i < 5; i++) {
  without.push(await buildTime(false))
  cold.push(await buildTime(true, true))
  warm.push(await buildTime(true, false))
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const pct = (xs: number[]) => `+${(((median(xs) - median(without)) / median(without)) * 100).toFixed(0)} %`
console.log(
  `vite build of the split fixture app (median of 5): ${median(without).toFixed(0)} ms without the plugin; ` +
    `with it ${median(cold).toFixed(0)} ms with no cache (${pct(cold)}), ${median(warm).toFixed(0)} ms when nothing changed since the last build (${pct(warm)})`,
)
