/**
 * Static discovery against a regex scan (issue 18's baseline): on generated projects of 10 / 100
 * / 1,000 tool files (30-line files, a quarter in subfolders) plus 20 % files without tools, how
 * long finding the tools takes — mcp-bridge's discovery (oxc through rolldown/parseAst: pre-scan,
 * parse, chain matching, imports followed) versus a tiny regex scan of our own (read every file, count `createMcpTool(`).
 * Each measurement runs in a fresh Node process on the built package, so it is cold (module
 * loading included), and the two run as interleaved pairs; medians of 5, and the ratio
 * discovery ÷ regex.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(import.meta.url)
const discoverModule = resolve(here, '../../../packages/vite-plugin/dist/core/discover.js')

/**
 * One measurement, in a fresh plain Node process (no TypeScript loader: discovery runs as users
 * run it, from the built package). The clock starts before the imports discovery needs, so
 * loading the parser counts; the regex scan needs none.
 */
const CHILD = `
const [method, root, discoverModule] = process.argv.slice(1)
const t0 = performance.now()
const { globSync } = await import('tinyglobby')
const { readFileSync } = await import('node:fs')
const files = globSync('src/**/*.{ts,tsx}', { cwd: root, absolute: true })
let found = 0
if (method === 'regex') {
  for (const file of files) found += (readFileSync(file, 'utf8').match(/createMcpTool\\(/g) ?? []).length
} else {
  const { crossCheck, discoverProject } = await import(discoverModule)
  found = crossCheck(discoverProject(root, files)).reduce((n, d) => n + d.tools.length, 0)
}
console.log(JSON.stringify({ ms: performance.now() - t0, found }))
`

const fixtures = resolve(here, '../../../fixtures')

function project(count: number): string {
  const root = join(fixtures, `.tmp-bench-discovery-${count}`)
  rmSync(root, { recursive: true, force: true })
  for (let i = 0; i < count; i++) {
    const dir = join(root, 'src/tools', i % 4 === 0 ? `group${i % 10}` : '')
    mkdirSync(dir, { recursive: true })
    const lines = [
      "import { createMcpTool } from '@mcp-bridge/runtime'",
      "import { z } from 'zod'",
      '',
      `/** Tool ${i}: asks one question and answers. */`,
      `export const tool${i} = createMcpTool('tool_${i}')`,
      `  .description('Tool number ${i}')`,
      '  .parameters(z.object({ q: z.string(), n: z.int().min(0).optional() }))',
      '  .elicits({',
      `    confirm: z.object({ ok: z.boolean(), note: z.string().max(${100 + i}).optional() }),`,
      "    pick: z.object({ choice: z.enum(['a', 'b', 'c']) }),",
      '  })',
      '  .execute(function* (p, ctx) {',
      "    yield* ctx.log('info', `start ${p.q}`)",
      "    const r = yield* ctx.elicit('confirm', { message: p.q })",
      "    if (r.action !== 'accept') return 'declined'",
      "    const c = yield* ctx.elicit('pick', { message: 'Which one?' })",
      "    if (c.action !== 'accept') return 'no choice'",
      '    let total = 0',
      '    for (let k = 0; k < (p.n ?? 3); k++) total += k',
      "    yield* ctx.notify('done', 1, 1)",
      '    return { ok: r.content.ok, choice: c.content.choice, total }',
      '  })',
      '',
      '// helpers',
      `export function describe${i}(): string {`,
      `  return 'tool_${i}'`,
      '}',
      '',
      `export const meta${i} = { index: ${i} }`,
      '',
    ]
    writeFileSync(join(dir, `tool${i}.ts`), lines.join('\n'))
  }
  mkdirSync(join(root, 'src/lib'), { recursive: true })
  for (let i = 0; i < Math.ceil(count / 5); i++) {
    writeFileSync(
      join(root, `src/lib/util${i}.ts`),
      `export function util${i}(x: number): number {\n  return x * ${i}\n}\n`.repeat(5).replace(/util(\d+)\(x/g, (_, d) => `util${d}_${Math.random().toString(36).slice(2, 6)}(x`),
    )
  }
  return root
}

function measure(method: 'regex' | 'discovery', root: string): { ms: number; found: number } {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, method, root, discoverModule], { cwd: root, encoding: 'utf8', timeout: 300_000 })
  return JSON.parse(out.trim().split('\n').pop()!) as { ms: number; found: number }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
for (const count of [10, 100, 1000]) {
  const root = project(count)
  try {
    const regex: number[] = []
    const discovery: number[] = []
    for (let round = 0; round < 5; round++) {
      const r = measure('regex', root)
      const d = measure('discovery', root)
      if (r.found !== count || d.found !== count) throw new Error(`expected ${count} tools, regex found ${r.found}, discovery ${d.found}`)
      regex.push(r.ms)
      discovery.push(d.ms)
    }
    console.log(
      `static discovery, ${String(count).padStart(4)} tool files (+${Math.ceil(count / 5)} others), cold process: regex ${median(regex).toFixed(0)} ms, ` +
        `mcp-bridge ${median(discovery).toFixed(0)} ms — ${(median(discovery) / median(regex)).toFixed(1)}× (median of 5 interleaved pairs; target ≤ 1.0×)`,
    )
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
