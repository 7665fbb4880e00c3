/**
 * How long an MCP client waits for the playground's stdio server: from spawning it to the answer
 * of `initialize` — built (`playground/dist/stdio/mcp-stdio.js`, `npm run build` emits it) and
 * from source through tsx (`playground/bin/mcp-stdio.mjs`), interleaved, 7 runs each (issue 29: ≤ 1 s).
 */
import { spawn, spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const playground = join(dirname(fileURLToPath(import.meta.url)), '../../playground')
spawnSync(process.execPath, ['scripts/build-stdio.mjs'], { cwd: playground, stdio: 'inherit' })

function startup(entry: string): Promise<number> {
  const t0 = performance.now()
  const child = spawn(process.execPath, [entry], { cwd: '/', stdio: ['pipe', 'pipe', 'ignore'] })
  child.stdout.setEncoding('utf8')
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => (child.kill(), reject(new Error(`${entry}: no answer in 30 s`))), 30_000)
    child.stdout.on('data', (chunk: string) => {
      out += chunk
      if (!out.includes('"id":1')) return
      clearTimeout(timer)
      resolve(performance.now() - t0)
      child.kill()
    })
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`,
    )
  })
}

const entries = { built: join(playground, 'dist/stdio/mcp-stdio.js'), 'source (tsx)': join(playground, 'bin/mcp-stdio.mjs') }
const times: Record<string, number[]> = { built: [], 'source (tsx)': [] }
for (let round = 0; round < 7; round++) for (const [name, entry] of Object.entries(entries)) times[name]!.push(await startup(entry))
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
for (const [name, xs] of Object.entries(times)) {
  console.log(`${name.padEnd(14)} spawn → initialize answered: median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`)
}
console.log(`built / source: ${(median(times.built!) / median(times['source (tsx)']!)).toFixed(2)}x`)
