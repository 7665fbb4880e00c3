/**
 * The built server (`vite build` → dist/server/index.js) on Bun and on Deno, as a user would run
 * it there: `bun dist/server/index.js`, `deno run -A dist/server/index.js`. Each serves the built
 * client and books a flight over the chat protocol — both questions answered, the ticket issued
 * in the SQLite ledger, the travel tip sampled. The runtimes come from their npm packages (Linux
 * x64 binaries), kept in `.cache/`; neither is a dependency of the project.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cached } from '../../conformance/test/support/node22.ts'
import { bookOverHttp } from './support/book-over-http.ts'
import { cleanEnv, freePort, run, startServer } from './support/processes.ts'

const playground = resolve(dirname(fileURLToPath(import.meta.url)), '..')
let out: string
const servers: ChildProcess[] = []

beforeAll(async () => {
  // Its own build folder (other tests build into dist/ meanwhile), where the server still finds
  // the app's node_modules by walking up.
  mkdirSync(join(playground, 'node_modules/.cache'), { recursive: true })
  out = mkdtempSync(join(playground, 'node_modules/.cache/runtimes-build-'))
  const vite = resolve(playground, '../node_modules/vite/bin/vite.js')
  await run([vite, 'build', '--logLevel', 'error', '--outDir', out], { cwd: playground, env: cleanEnv(), timeoutMs: 120_000, what: 'vite build' })
}, 240_000)

afterAll(() => {
  for (const server of servers) server.kill()
  if (out) rmSync(out, { recursive: true, force: true })
})

const runtimes = [
  { name: 'Bun', dir: 'bun', spec: '@oven/bun-linux-x64@1', bin: 'node_modules/@oven/bun-linux-x64/bin/bun', args: (entry: string) => [entry] },
  { name: 'Deno', dir: 'deno', spec: '@deno/linux-x64-glibc@2', bin: 'node_modules/@deno/linux-x64-glibc/deno', args: (entry: string) => ['run', '-A', entry] },
]

describe.runIf(process.platform === 'linux' && process.arch === 'x64')('the built server on other runtimes', () => {
  it.each(runtimes)(
    '$name serves the built client and books a flight',
    async ({ dir, spec, bin, args }) => {
      const command = join(cached(dir, spec, bin), bin)
      const port = await freePort()
      const data = mkdtempSync(join(out, `data-${dir}-`))
      const started = await startServer(args(join(out, 'server/index.js')), {
        command,
        cwd: playground,
        env: cleanEnv({ PORT: String(port), MCP_BRIDGE_DATA: data }),
        ready: `127.0.0.1:${port}`,
        timeoutMs: 60_000,
        what: `${dir} ${join(out, 'server/index.js')}`,
      })
      servers.push(started.child)
      const base = `http://127.0.0.1:${port}/`
      expect(await (await fetch(base)).text()).toContain('<div id="root"></div>')
      const result = await bookOverHttp(base)
      expect(result).toMatchObject({ booked: true, ticketNumber: 'TK-JS-501-3B', route: 'Oslo → Berlin', seat: '3B', tip: expect.any(String) })
      expect(started.output()).not.toMatch(/error|warn/i)
    },
    300_000,
  )
})
