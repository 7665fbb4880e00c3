/**
 * An app written the way other people write theirs (adoption/notes-app), from the packed
 * packages: a tool file with helpers beside `execute` (a `node:crypto` signer, env reads, a
 * constant secret, imports of `.server.ts` modules), the app's own cookie sessions behind
 * `authenticate`, a react-hook-form form with zodResolver in the plugin, a vite-node script and a
 * Vitest test that load the app's vite.config.ts with a Vite of their own. It runs on the Vite and
 * zod versions apps are on: Vite 8 with the newest zod (in Chromium), Vite 7 with zod 4.0.0, and
 * Vite 6 with zod 3.25.76 (its schemas through `zod/v4`).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postChat } from '../../playground/test/support/chat-post.ts'
import { launchChromium } from '../../playground/test/support/browser.ts'
import { exec, freePort, start, stop } from './commands.ts'
import { packWorkspace } from './pack.ts'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mcp-bridge-notes-app-'))
const node = process.execPath
let tarballs: Record<string, string>
let browser: Browser | undefined

/** What ships to the browser must hold none of the tool file's server side. */
const SERVER_SIDE = /NOTES_SERVER_ONLY|createHmac|nt_grace|nt_linus|NOTES_API_URL|NOTES_SIGNING_KEY|notesToken|sid-grace/

const APP = ['react', 'react-dom', 'react-hook-form', '@hookform/resolvers', 'effection', 'typescript', '@types/react', '@types/react-dom', '@types/node', 'ts-morph', 'vite-node@^1', 'vitest@^2']

beforeAll(async () => {
  tarballs = await packWorkspace(repo, join(scratch, 'packs'))
}, 300_000)

afterAll(async () => {
  await browser?.close()
  rmSync(scratch, { recursive: true, force: true })
})

/** One save_note turn over HTTP as the cookie's user: the question, then the answer; the tool's result. */
async function saveNoteOverHttp(base: string, cookie: string, title: string): Promise<unknown> {
  const url = new URL('/api/chat', base).href
  const headers = { cookie }
  const first = await postChat(url, { messages: [{ role: 'user', content: [{ type: 'text', text: 'a note please' }] }] }, headers)
  const call = first.find((e) => e.type === 'tool_call') as { callId: string; token: string } | undefined
  const question = first.find((e) => e.type === 'elicit_request') as { request: { id: string } } | undefined
  const state = first.find((e) => e.type === 'conversation_state') as { messages: unknown[] } | undefined
  if (!call || !question || !state) return first.find((e) => e.type === 'tool_result')?.result ?? first
  const second = await postChat(url, { messages: state.messages, elicitResponses: [{ callId: call.callId, elicitId: question.request.id, token: call.token, result: { action: 'accept', content: { title, pinned: true } } }] }, headers)
  return second.find((e) => e.type === 'tool_result')?.result
}

const VERSIONS = [
  { vite: '8', react: '@vitejs/plugin-react@^5', zod: 'zod', from: 'zod', inBrowser: true },
  { vite: '7', react: '@vitejs/plugin-react@^5', zod: 'zod@4.0.0', from: 'zod', inBrowser: false },
  { vite: '6', react: '@vitejs/plugin-react@^5', zod: 'zod@3.25.76', from: 'zod/v4', inBrowser: false },
]

// The older Vite and zod cases are a matrix of versions, not of Node: once per CI (see vite.config.ts).
describe.each(process.env.MCP_BRIDGE_NODE_ONLY === '1' ? VERSIONS.slice(0, 1) : VERSIONS)('notes-app on Vite $vite and $zod', ({ vite, react, zod, from, inBrowser }) => {
  let dir: string
  const run = (args: string[], timeoutMs = 180_000) => exec(node, args, { cwd: dir, timeoutMs })
  const bin = (path: string) => join(dir, 'node_modules', path)

  beforeAll(async () => {
    dir = join(scratch, `vite${vite}`)
    cpSync(join(repo, 'adoption/notes-app'), dir, { recursive: true, filter: (src) => !/[\\/](node_modules|dist|mcp-bridge)([\\/]|$)/.test(src.slice(repo.length)) })
    if (from !== 'zod') {
      for (const file of readdirSync(join(dir, 'src'), { recursive: true }) as string[]) {
        const path = join(dir, 'src', file)
        if (/\.tsx?$/.test(file)) writeFileSync(path, readFileSync(path, 'utf8').replaceAll("from 'zod'", `from '${from}'`))
      }
    }
    const install = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...Object.values(tarballs), ...APP, `vite@^${vite}`, react, zod], { cwd: dir, timeoutMs: 300_000 })
    expect(install.code, install.output).toBe(0)
    expect(install.output).not.toMatch(/ERESOLVE/)
  }, 360_000)

  it('generates, checks (types included) and type-checks; the build keeps the tool file\'s server side out of the browser', async () => {
    const cli = bin('@mcp-bridge/vite-plugin/bin/mcp-bridge.js')
    expect((await run([cli, 'generate'])).code).toBe(0)
    const check = await run([cli, 'check'])
    expect(check.code, check.output).toBe(0)
    expect(check.output).toMatch(/1 tool, 0 errors, 0 warnings/)
    const tsc = await run([bin('typescript/bin/tsc'), '-p', '.'])
    expect(tsc.code, tsc.output).toBe(0)
    const build = await run([bin('vite/bin/vite.js'), 'build'], 240_000)
    expect(build.code, build.output).toBe(0)
    const assets = join(dir, 'dist/client/assets')
    const shipped = readdirSync(assets).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n')
    expect(shipped).toContain('Save note') // the form is there…
    expect(SERVER_SIDE.exec(shipped)?.[0]).toBeUndefined() // …nothing of the server side
  }, 600_000)

  it('the built server saves the note as the signed-in user (the app\'s own cookie session); nobody signed in is told to sign in', async () => {
    const port = await freePort()
    const server = await start(node, ['dist/server/index.js'], { cwd: dir, env: { ...process.env, PORT: String(port) }, ready: `127.0.0.1:${port}`, timeoutMs: 60_000 })
    try {
      const base = `http://127.0.0.1:${port}/`
      expect(await saveNoteOverHttp(base, 'theme=dark; sid=sid-grace', 'Groceries')).toBe('Saved "Groceries" for Grace (#1)')
      expect(await saveNoteOverHttp(base, 'sid=sid-linus', 'Kernel')).toBe('Saved "Kernel" for Linus (#2)')
      expect(await saveNoteOverHttp(base, '', 'Nobody')).toBe('Sign in to save notes.')
      if (!inBrowser) return
      browser ??= await launchChromium()
      const context = await browser.newContext()
      await context.addCookies([{ name: 'sid', value: 'sid-grace', url: base }])
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(String(e)))
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      await page.goto(base)
      await page.getByLabel('Message').fill('Please save a note')
      await page.getByRole('button', { name: 'Send' }).click()
      await page.getByLabel('Title').waitFor({ timeout: 30_000 })
      await page.reload() // the question comes back
      await page.getByLabel('Title').fill('ab')
      await page.getByRole('button', { name: 'Save note' }).click()
      await page.getByRole('alert').filter({ hasText: 'At least 3 characters' }).waitFor() // react-hook-form with the tool's own schema
      await page.getByLabel('Title').fill('Dentist')
      await page.getByLabel('Pin it').check()
      await page.getByRole('button', { name: 'Save note' }).click()
      await page.getByText('Saved "Dentist" for Grace (#3)').first().waitFor({ timeout: 30_000 })
      expect(errors).toEqual([])
      await context.close()
    } finally {
      await stop(server)
    }
  }, 240_000)

  it('its vite-node script and its Vitest test load vite.config.ts with their own Vite: the plugin is inert, nothing fails', async () => {
    const script = await run([bin('vite-node/vite-node.mjs'), 'scripts/mock-api.ts'], 120_000)
    expect(script.code, script.output).toBe(0)
    expect(script.output).toContain('mock notes api ready: 1 note(s)')
    const test = await run([bin('vitest/vitest.mjs'), 'run'], 120_000)
    expect(test.code, test.output).toBe(0)
    expect(test.output).toMatch(/1 passed/)
  }, 300_000)
})
