/**
 * React Router 7 (framework mode) with its custom Express server (the node-custom-server
 * template), from the packed packages, on Vite 7: mcp-bridge's chat and MCP endpoint are Express
 * routes mounted ahead of React Router's request handler (server/app.ts). In development
 * (`NODE_ENV=development node server.js`: Vite in middleware mode) and after `react-router build`
 * (`node server.js`), a question is answered in Chromium and the official MCP client calls the tool.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { exec, freePort, start, stop } from './commands.ts'
import { greetInBrowser, greetOverMcp, useFrameworkApp, type FrameworkApp } from './framework-checks.ts'

let fw: FrameworkApp
let browser: Browser

/** React Router 7's packages move in lockstep (one version); its TypeScript peer stops at 6. */
const REACT_ROUTER_7 = ['react-router@7.18.4', '@react-router/dev@7.18.4', '@react-router/express@7.18.4', '@react-router/node@7.18.4', 'express@^5', 'isbot', 'react@^19', 'react-dom@^19', 'vite@^7', 'typescript@^5.9', '@types/react', '@types/react-dom', '@types/node', '@types/express']

// The root layout and the chat page are react-router-app's: only the server and the routes differ.
const harness = useFrameworkApp('react-router-7-express', 'app', REACT_ROUTER_7, { shared: [{ from: 'react-router-app', files: ['app/root.tsx', 'app/routes/home.tsx'] }] })
beforeAll(() => {
  ;({ fw, browser } = harness)
})

const serve = async (mode: 'development' | 'production') => {
  const port = await freePort()
  const server = await start(fw.node, ['server.js'], { cwd: fw.app, env: { ...fw.env, NODE_ENV: mode, PORT: String(port) }, ready: `127.0.0.1:${port}`, timeoutMs: 90_000 })
  harness.running.push(server)
  return { server, base: `http://127.0.0.1:${port}/` }
}

describe('React Router 7 with a custom Express server, from the packed packages', () => {
  it('development (Vite in middleware mode): the registries are written, a question is answered in Chromium and over MCP', async () => {
    const { server, base } = await serve('development')
    await greetInBrowser(browser, base, 'Ada')
    expect(await greetOverMcp(base, 'Grace')).toBe('Hello, Grace!')
    expect(readdirSync(join(fw.app, 'app/mcp-bridge')).sort()).toEqual(['client.gen.ts', 'mcp-tools.json', 'server.gen.ts'])
    await stop(server)
  }, 240_000)

  it('react-router build, then node server.js: the same, and the tool body stays out of the browser build', async () => {
    const build = await exec(fw.node, [fw.inApp('@react-router/dev/bin.js'), 'build'], { cwd: fw.app, env: fw.env, timeoutMs: 240_000 })
    expect(build.code, build.output).toBe(0)
    const assets = join(fw.app, 'build/client/assets')
    const shipped = readdirSync(assets).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n')
    expect(shipped).toContain('askName')
    expect(shipped).not.toContain('Who should I greet?')
    const { base } = await serve('production')
    await greetInBrowser(browser, base, 'Linus')
    expect(await greetOverMcp(base, 'Ken')).toBe('Hello, Ken!')
  }, 360_000)
})
