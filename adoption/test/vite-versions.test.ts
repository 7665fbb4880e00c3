/**
 * The versions we meet apps at: the new user's app (adoption/app) from the packed packages on
 * Vite 6 and 7 (Vite 8 is adoption.test.ts), each with the `@vitejs/plugin-react` that supports
 * it: `mcp-bridge check`, `vite build` (the tool body out of the client), a chat turn against the
 * built server and against `vite dev`. On Vite 5 the build stops with VITE_VERSION_UNSUPPORTED and
 * the upgrade line, never a raw error. (zod 3.25 and 4.0, vite-node and Vitest: notes-app.test.ts.)
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { greetOverHttp } from './chat-turn.ts'
import { exec, freePort, start, stop } from './commands.ts'
import { packWorkspace } from './pack.ts'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mcp-bridge-vite-versions-'))
const node = process.execPath
let tarballs: Record<string, string>

/** What the README's install line brings, with the Vite and React plugin under test. */
const APP_PACKAGES = ['effection', 'react', 'react-dom', 'typescript', '@types/react', '@types/react-dom', '@types/node', 'ts-morph']

/** adoption/app copied outside the workspace, installed with `extra` (a Vite and its React plugin). */
async function appWith(name: string, extra: readonly string[]): Promise<{ dir: string; output: string; code: number | null }> {
  const dir = join(scratch, name)
  cpSync(join(repo, 'adoption/app'), dir, { recursive: true, filter: (src) => !/[\\/](node_modules|dist|mcp-bridge)([\\/]|$)/.test(src.slice(repo.length)) })
  const install = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...Object.values(tarballs), ...APP_PACKAGES, ...extra], { cwd: dir, timeoutMs: 300_000 })
  return { dir, ...install }
}

const bin = (dir: string, path: string) => join(dir, 'node_modules', path)

beforeAll(async () => {
  tarballs = await packWorkspace(repo, join(scratch, 'packs'))
}, 300_000)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe.each([
  { vite: '6', react: '@vitejs/plugin-react@^5' },
  { vite: '7', react: '@vitejs/plugin-react@^5' },
])('an app on Vite $vite, from the packed packages', ({ vite, react }) => {
  let dir: string

  beforeAll(async () => {
    const app = await appWith(`vite${vite}`, [`vite@^${vite}`, react, 'zod'])
    expect(app.code, app.output).toBe(0)
    expect(app.output).not.toMatch(/ERESOLVE|EBADENGINE/)
    dir = app.dir
    expect(JSON.parse(readFileSync(bin(dir, 'vite/package.json'), 'utf8')).version).toMatch(new RegExp(`^${vite}\\.`))
  }, 360_000)

  it('generates and checks', async () => {
    const cli = bin(dir, '@mcp-bridge/vite-plugin/bin/mcp-bridge.js')
    const generate = await exec(node, [cli, 'generate'], { cwd: dir, timeoutMs: 120_000 })
    expect(generate.code, generate.output).toBe(0)
    const check = await exec(node, [cli, 'check'], { cwd: dir, timeoutMs: 180_000 })
    expect(check.code, check.output).toBe(0)
    expect(check.output).toMatch(/0 errors, 0 warnings/)
  }, 360_000)

  it('builds client and server; the tool body stays out of the client; the built server answers a chat turn', async () => {
    const build = await exec(node, [bin(dir, 'vite/bin/vite.js'), 'build'], { cwd: dir, timeoutMs: 240_000 })
    expect(build.code, build.output).toBe(0)
    expect(build.output).not.toMatch(/\[mcp-bridge\].*(error|warn)/i)
    const assets = join(dir, 'dist/client/assets')
    const client = readdirSync(assets).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n')
    expect(client).toContain('askName')
    expect(client).not.toContain('Hello, ${')
    const port = await freePort()
    const server = await start(node, ['dist/server/index.js'], { cwd: dir, env: { ...process.env, PORT: String(port) }, ready: `127.0.0.1:${port}`, timeoutMs: 60_000 })
    try {
      expect(await greetOverHttp(`http://127.0.0.1:${port}/`, 'Ada')).toBe('Hello, Ada!')
    } finally {
      await stop(server)
    }
  }, 360_000)

  it('vite dev serves the chat from the sources', async () => {
    const port = await freePort()
    const dev = await start(node, [bin(dir, 'vite/bin/vite.js'), '--strictPort', '--port', String(port), '--host', '127.0.0.1'], { cwd: dir, ready: `127.0.0.1:${port}`, timeoutMs: 90_000 })
    try {
      expect(await greetOverHttp(`http://127.0.0.1:${port}/`, 'Grace')).toBe('Hello, Grace!')
    } finally {
      await stop(dev)
    }
  }, 240_000)
})

describe('older tools and an older Vite', () => {
  it('Vite 5 as the app\'s Vite: the build stops with VITE_VERSION_UNSUPPORTED and the upgrade line', async () => {
    const app = await appWith('vite5', ['vite@^5', '@vitejs/plugin-react@^4', 'zod', '--legacy-peer-deps'])
    expect(app.code, app.output).toBe(0)
    const build = await exec(node, [bin(app.dir, 'vite/bin/vite.js'), 'build'], { cwd: app.dir, timeoutMs: 120_000 })
    expect(build.code).not.toBe(0)
    expect(build.output).toContain('mcp-bridge needs Vite 6, 7 or 8, and this app runs Vite 5.')
    expect(build.output).toContain('npm install -D vite@^6')
    expect(build.output).not.toMatch(/SyntaxError|does not provide an export named/)
  }, 420_000)
})
