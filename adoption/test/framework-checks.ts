/**
 * A framework app (React Router, TanStack Start) with the new user's greet tool and chat page,
 * set up from the packed packages on Node 22 (which the frameworks need), and what it must do
 * wherever it runs (dev, a production server): answer the question in Chromium with the plugin's
 * form, and over MCP with the official client.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import type { ChildProcess } from 'node:child_process'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { launchChromium } from '../../playground/test/support/browser.ts'
import { node22 } from '../../conformance/test/support/node22.ts'
import { exec, stop, userEnv } from './commands.ts'
import { packWorkspace } from './pack.ts'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** What every framework app adds for the bridge: its peers, and the MCP server for /mcp. */
const BRIDGE_PEERS = ['effection@^4', 'zod@^4', '@modelcontextprotocol/server']

export interface FrameworkApp {
  scratch: string
  app: string
  node: string
  env: NodeJS.ProcessEnv
  inApp(path: string): string
}

/**
 * Copies `adoption/<name>` outside the workspace (with `shared`: named files of another app it has
 * the same), adds the greet tool and the chat page of adoption/app under `sourceDir`, and installs
 * the packed packages with `dependencies`.
 */
export async function setUpFrameworkApp(name: string, sourceDir: string, dependencies: readonly string[], { shared = [] }: { shared?: ReadonlyArray<{ from: string; files: readonly string[] }> } = {}): Promise<FrameworkApp> {
  const scratch = mkdtempSync(join(tmpdir(), `mcp-bridge-${name}-`))
  const app = join(scratch, 'app')
  const node = node22()
  const env = userEnv({ PATH: `${dirname(node)}:${process.env.PATH}` })
  const tarballs = await packWorkspace(repo, join(scratch, 'packs'))
  cpSync(join(repo, 'adoption', name), app, { recursive: true, filter: (src) => !/[\\/](node_modules|dist|build|mcp-bridge|\.react-router)([\\/]|$)|routeTree\.gen\.ts$/.test(src.slice(repo.length)) })
  // Files another framework app has the same (React Router's root layout, say): one copy in the repository.
  for (const { from, files } of shared) for (const file of files) cpSync(join(repo, 'adoption', from, file), join(app, file))
  cpSync(join(repo, 'adoption/app/src/tools/greet'), join(app, sourceDir, 'tools/greet'), { recursive: true })
  cpSync(join(repo, 'adoption/app/src/App.tsx'), join(app, sourceDir, 'chat.tsx'))
  const install = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...Object.values(tarballs), ...dependencies, ...BRIDGE_PEERS], { cwd: app, env, timeoutMs: 300_000 })
  expect(install.code, install.output).toBe(0)
  return { scratch, app, node, env, inApp: (path) => join(app, 'node_modules', path) }
}

/** The chat in Chromium: ask for a greeting, answer with the plugin's form, see the result; no console error. */
export async function greetInBrowser(browser: Browser, base: string, name: string): Promise<void> {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
  page.on('pageerror', (e) => void errors.push(String(e)))
  try {
    await page.goto(base)
    await page.getByLabel('Message').fill('Please greet someone')
    await page.getByRole('button', { name: 'Send' }).click()
    // A reload mid-question brings the question back (useChat({ id }) keeps the conversation).
    await page.getByLabel('Name').waitFor({ timeout: 30_000 })
    await page.reload()
    await page.getByLabel('Name').fill(name)
    await page.getByRole('button', { name: 'Greet' }).click()
    await page.getByText(`Hello, ${name}!`).first().waitFor({ timeout: 30_000 })
    expect(errors).toEqual([])
  } finally {
    await page.close()
  }
}

/** greet over the app's /mcp route with the official MCP client, which answers the question itself. */
export async function greetOverMcp(base: string, name: string): Promise<string> {
  return callOverMcp(base, 'greet', { name })
}

/** Calls `tool` over the app's /mcp route with the official MCP client, answering its question with `answer`. */
export async function callOverMcp(base: string, tool: string, answer: Record<string, string>): Promise<string> {
  const client = new Client({ name: 'framework-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' as const, content: answer }))
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)))
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain(tool)
    const result = (await client.callTool({ name: tool, arguments: {} }, { timeout: 60_000 })) as CallToolResult
    return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
  } finally {
    await client.close()
  }
}

/** A framework app for one test file: set up before its tests (with a Chromium), and everything it started stopped and removed after. */
export interface FrameworkHarness {
  readonly fw: FrameworkApp
  readonly browser: Browser
  /** Servers a test started: stopped when the file ends. */
  readonly running: ChildProcess[]
}

export function useFrameworkApp(...args: Parameters<typeof setUpFrameworkApp>): FrameworkHarness {
  let fw: FrameworkApp | undefined
  let browser: Browser | undefined
  const running: ChildProcess[] = []
  beforeAll(async () => {
    fw = await setUpFrameworkApp(...args)
    browser = await launchChromium()
  }, 420_000)
  afterAll(async () => {
    await browser?.close()
    for (const child of running) await stop(child)
    if (fw) rmSync(fw.scratch, { recursive: true, force: true })
  }, 60_000)
  return {
    get fw() {
      return fw!
    },
    get browser() {
      return browser!
    },
    running,
  }
}
