/**
 * Synthetic projects for the generation benchmarks: `count` tool files, each with its plugin file
 * when `plugins` is set (an app's tools come with their plugins — a corpus without them measured
 * half the work). Written under `fixtures/.tmp-bench-*`, where the workspace's packages resolve.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const fixtures = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../fixtures')

export function toolSource(i: number, name = `tool_${i}`): string {
  return (
    `import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\n\n` +
    `export const tool${i} = createMcpTool('${name}')\n  .description('Tool ${i}')\n  .parameters(z.object({ q: z.string() }))\n` +
    `  .elicits({ confirm: z.object({ ok: z.boolean(), note: z.string().max(${100 + i}).optional() }) })\n` +
    `  .execute(function* (p, ctx) {\n    const r = yield* ctx.elicit('confirm', { message: p.q })\n    return r.action\n  })\n`
  )
}

export function pluginSource(i: number): string {
  return (
    `import { createPlugin } from '@mcp-bridge/runtime'\nimport { tool${i} } from './tool${i}.ts'\n\n` +
    `export const plugin${i} = createPlugin(tool${i})\n  .onElicit({\n    *confirm() {\n      return { action: 'accept', content: { ok: true } }\n    },\n  })\n  .build()\n`
  )
}

/** A fresh corpus at `fixtures/.tmp-bench-<name>`; returns its root. */
export function toolCorpus(name: string, count: number, { plugins = true }: { plugins?: boolean } = {}): string {
  const root = join(fixtures, `.tmp-bench-${name}`)
  rmSync(root, { recursive: true, force: true })
  mkdirSync(join(root, 'src/tools'), { recursive: true })
  for (let i = 0; i < count; i++) {
    writeFileSync(join(root, `src/tools/tool${i}.ts`), toolSource(i))
    if (plugins) writeFileSync(join(root, `src/tools/plugin${i}.ts`), pluginSource(i))
  }
  return root
}
