import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { McpBridgeGenerator, createViteModuleLoader, resolveOptions } from '@mcp-bridge/vite-plugin/core'
const count = 1000
const root = resolve('fixtures', `.tmp-prof-${count}`)
rmSync(root, { recursive: true, force: true })
mkdirSync(join(root, 'src/tools'), { recursive: true })
for (let i = 0; i < count; i++) writeFileSync(join(root, `src/tools/tool${i}.ts`), `import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\n\nexport const tool${i} = createMcpTool('tool_${i}')\n  .description('Tool ${i}')\n  .parameters(z.object({ q: z.string() }))\n  .elicits({ confirm: z.object({ ok: z.boolean(), note: z.string().max(${100 + i}).optional() }) })\n  .execute(function* (p, ctx) {\n    const r = yield* ctx.elicit('confirm', { message: p.q })\n    return r.action\n  })\n`)
const loader = await createViteModuleLoader(root, { configFile: false })
const generator = new McpBridgeGenerator(resolveOptions({}, root), loader)
await generator.generate()
const changed = join(root, 'src/tools/tool0.ts')
for (let k = 0; k < 5; k++) {
  writeFileSync(changed, `// changed ${k}\n${readFileSync(changed, 'utf8')}`)
  const t0 = performance.now()
  const marks: Record<string, number> = {}
  const files = await generator.sourceFiles()
  marks.sourceFiles = performance.now() - t0
  await generator.generate([changed])
  marks.total = performance.now() - t0
  console.log(JSON.stringify(Object.fromEntries(Object.entries(marks).map(([a, b]) => [a, Math.round(b)]))), files.length)
}
await loader.close()
rmSync(root, { recursive: true, force: true })
