/**
 * A new user's app, from the README alone: the fixture in adoption/app/ is copied outside the
 * workspace, the packages are installed from `npm pack` tarballs with the README's install line,
 * and every documented step runs — check before the first generate, generate, check, `tsc -b`
 * with the tsconfig files of `npm create vite -- --template react-ts` as they come, vite
 * build (no warnings), then one chat turn with a question answered over HTTP against the built
 * server, `vite preview` and `vite dev`. Packaging, exports, peers and the documented wiring
 * cannot break without this failing.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { greetOverHttp } from './chat-turn.ts'
import { exec, freePort, start, stop, userEnv, type Ran } from './commands.ts'
import { packWorkspace } from './pack.ts'
import { launchChromium } from '../../playground/test/support/browser.ts'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mcp-bridge-adoption-'))
const app = join(scratch, 'app')
const node = process.execPath
const bin = (path: string) => join(app, 'node_modules', path)
let install: Ran

/** The README's install line, with the two packages replaced by their tarballs. */
function readmeInstallLine(tarballs: Record<string, string>): string[] {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Install'))
  const line = /```sh\n(npm install [^\n]+)\n```/.exec(section)?.[1]
  if (!line) throw new Error('README: no `npm install …` line under "## Install"')
  return line
    .split(/\s+/)
    .slice(2)
    .map((spec) => tarballs[spec] ?? spec)
}

/** The packed packages, by name. */
const tarballs: Record<string, string> = {}

beforeAll(async () => {
  Object.assign(tarballs, await packWorkspace(repo, join(scratch, 'packs')))
  cpSync(join(repo, 'adoption/app'), app, { recursive: true, filter: (src) => !/[\\/](node_modules|dist|mcp-bridge)([\\/]|$)/.test(src.slice(repo.length)) })
  install = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...readmeInstallLine(tarballs)], { cwd: app, timeoutMs: 240_000 })
  expect(install.code, install.output).toBe(0)
}, 300_000)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const mcpBridge = (...args: string[]) => exec(node, [bin('@mcp-bridge/vite-plugin/bin/mcp-bridge.js'), ...args], { cwd: app, timeoutMs: 120_000 })
const vite = bin('vite/bin/vite.js')

describe('a new app, from the README and the packed packages', () => {
  it('installs with no engine warnings, and the generated files are not there yet', () => {
    expect(install.output).not.toMatch(/EBADENGINE|ERESOLVE|peer dep/i)
    expect(existsSync(join(app, 'src/mcp-bridge'))).toBe(false)
  })

  it('the packed packages stay within their size budgets (what every install downloads)', () => {
    // Budgets with ~10 % headroom over today's sizes (runtime 702 kB — grown from 652 kB by code: the
    // call driver's modules, every error class in one entry, MCP session resumption — vite-plugin
    // 228 kB packed): a jump past them is a dependency bundled, a fixture shipped or maps doubled —
    // look before raising.
    const budgets: Record<string, number> = { "@mcp-bridge/runtime": 780_000, "@mcp-bridge/vite-plugin": 255_000 }
    for (const [name, tarball] of Object.entries(tarballs)) expect(statSync(tarball).size, name).toBeLessThanOrEqual(budgets[name]!)
  })

  it('the packed packages carry their README and LICENSE; publint (strict) and attw (ESM-only) find nothing', async () => {
    for (const [name, tarball] of Object.entries(tarballs)) {
      const dir = join(scratch, `unpacked-${name.replace('/', '-')}`)
      mkdirSync(dir, { recursive: true })
      const untar = await exec('tar', ['xzf', tarball, '-C', dir], { cwd: scratch, timeoutMs: 60_000 })
      expect(untar.code, untar.output).toBe(0)
      const pkg = join(dir, 'package')
      expect(readFileSync(join(pkg, 'LICENSE'), 'utf8')).toMatch(/^MIT License/)
      expect(readFileSync(join(pkg, 'README.md'), 'utf8')).toContain(`# ${name}`)
      const { publint } = (await import('publint')) as { publint: (o: { pkgDir: string; level: string; strict: boolean }) => Promise<{ messages: unknown[] }> }
      expect((await publint({ pkgDir: pkg, level: 'suggestion', strict: true })).messages, `publint ${name}`).toEqual([])
      const attw = await exec(node, [join(repo, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--profile', 'esm-only'], { cwd: scratch, timeoutMs: 120_000 })
      expect(attw.code, attw.output).toBe(0)
    }
  }, 240_000)

  it('check, before the first generate, says what to run (exit 1, not a crash)', async () => {
    const check = await mcpBridge('check')
    expect(check.code, check.output).toBe(1)
    expect(check.output).toContain('src/mcp-bridge/server.gen.ts:1:1  Missing: this generated file does not match the sources; run `mcp-bridge generate`')
  }, 120_000)

  it('generate, then check and tsc -b (the Vite template\'s tsconfig, unchanged) pass', async () => {
    // As the README says: before the registries exist, tsc -b cannot pass (the template's build runs it first).
    const early = await exec(node, [bin('typescript/bin/tsc'), '-b'], { cwd: app, timeoutMs: 120_000 })
    expect(early.code).not.toBe(0)
    expect(early.output).toContain('mcp-bridge/server.gen')
    const generate = await mcpBridge('generate')
    expect(generate.code, generate.output).toBe(0)
    expect(generate.output).toContain('mcp-bridge generate: 1 tool, 0 errors, 0 warnings')
    const check = await mcpBridge('check')
    expect(check.code, check.output).toBe(0)
    // ts-morph is an optional peer the README's install line leaves out: check says how to add it.
    expect(check.output).toContain('package.json:1:1  warning: The type-aware pass needs ts-morph, which is not installed here')
    const tsc = await exec(node, [bin('typescript/bin/tsc'), '-b'], { cwd: app, timeoutMs: 120_000 })
    expect(tsc.code, tsc.output).toBe(0)
  }, 240_000)

  it('vite build emits the client and the server, with no warnings, even with the generated files gone; no client file or source map holds the tool body', async () => {
    rmSync(join(app, 'src/mcp-bridge'), { recursive: true })
    const build = await exec(node, [vite, 'build', '--sourcemap'], { cwd: app, timeoutMs: 180_000 })
    expect(build.code, build.output).toBe(0)
    expect(build.output).not.toMatch(/warn|\(!\)|externalized/i)
    for (const file of ['dist/client/index.html', 'dist/client/robots.txt', 'dist/server/app.js', 'dist/server/index.js', 'src/mcp-bridge/server.gen.ts', 'src/mcp-bridge/mcp-tools.json']) {
      expect(existsSync(join(app, file)), file).toBe(true)
    }
    // The manifest (schemas, source paths) is not served with the client unless the app asks (publicManifest).
    expect(existsSync(join(app, 'dist/client/mcp-tools.json'))).toBe(false)
    expect(existsSync(join(app, 'dist/server/robots.txt')), 'public/ is copied into the client build only').toBe(false)
    const client = join(app, 'dist/client')
    const files = (readdirSync(client, { recursive: true }) as string[]).filter((f) => /\.(js|map)$/.test(f))
    expect(files.filter((f) => f.endsWith('.map')).length).toBeGreaterThan(0)
    const shipped = files.map((f) => readFileSync(join(client, f), 'utf8')).join('\n')
    expect(shipped).toContain('askName') // the plugin and its map are there…
    expect(shipped).not.toContain('Who should I greet?') // …the tool's body is not, in the JS or its maps
    expect(shipped).toContain('removed from the client bundle by mcp-bridge')
  }, 240_000)

  it('node dist/server/index.js serves the app, and a question is answered over HTTP', async () => {
    const port = await freePort()
    const server = await start(node, ['dist/server/index.js'], { cwd: app, env: userEnv({ PORT: String(port) }), ready: `127.0.0.1:${port}`, timeoutMs: 60_000 })
    try {
      expect(await greetOverHttp(`http://127.0.0.1:${port}/`, 'Ada')).toBe('Hello, Ada!')
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toContain('<div id="root"></div>')
    } finally {
      await stop(server)
    }
  }, 120_000)

  it('vite preview serves the built chat beside the built client', async () => {
    const port = await freePort()
    const preview = await start(node, [vite, 'preview', '--strictPort', '--port', String(port), '--host', '127.0.0.1'], { cwd: app, ready: `127.0.0.1:${port}`, timeoutMs: 60_000 })
    try {
      expect(await greetOverHttp(`http://127.0.0.1:${port}/`, 'Grace')).toBe('Hello, Grace!')
    } finally {
      await stop(preview)
    }
  }, 120_000)

  it('vite dev serves the chat from the sources, with the generated files gone', async () => {
    rmSync(join(app, 'src/mcp-bridge'), { recursive: true })
    const port = await freePort()
    const dev = await start(node, [vite, '--strictPort', '--port', String(port), '--host', '127.0.0.1'], { cwd: app, ready: `127.0.0.1:${port}`, timeoutMs: 60_000 })
    try {
      expect(await greetOverHttp(`http://127.0.0.1:${port}/`, 'Linus')).toBe('Hello, Linus!')
    } finally {
      await stop(dev)
    }
  }, 120_000)

  it('in the browser, a plugin whose handler fails shows why on its card, and the generated form takes the answer', async () => {
    // A handler that answers without showing anything, and answers wrong: the runtime refuses it.
    const plugin = join(app, 'src/tools/greet/plugin.tsx')
    const source = readFileSync(plugin, 'utf8')
    writeFileSync(plugin, source.replace("return { action: 'accept', content: yield* ctx.render(NameForm, {}) }", "return { action: 'accept', content: { name: '' } }"))
    const port = await freePort()
    const dev = await start(node, [vite, '--strictPort', '--port', String(port), '--host', '127.0.0.1'], { cwd: app, ready: `127.0.0.1:${port}`, timeoutMs: 60_000 })
    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(String(e)))
      await page.goto(`http://127.0.0.1:${port}/`)
      await page.getByLabel('Message').fill('Please greet someone')
      await page.getByRole('button', { name: 'Send' }).click()
      const alert = page.getByRole('alert').filter({ hasText: "This question's UI failed" })
      await alert.waitFor({ timeout: 30_000 })
      expect(await alert.innerText()).toMatch(/returned an invalid answer without showing any UI.*name/s)
      await page.getByLabel(/Name/).fill('Ada')
      await page.getByRole('button', { name: 'Submit' }).click()
      await page.getByText('Hello, Ada!').waitFor({ timeout: 30_000 })
      expect(errors).toEqual([])
    } finally {
      await browser.close()
      await stop(dev)
      writeFileSync(plugin, source)
    }
  }, 180_000)

  it('vite dev: an edit to the question\'s component is applied in place (React Fast Refresh): no reload, what was typed stays', async () => {
    const form = join(app, 'src/tools/greet/NameForm.tsx')
    const source = readFileSync(form, 'utf8')
    const port = await freePort()
    const dev = await start(node, [vite, '--strictPort', '--port', String(port), '--host', '127.0.0.1'], { cwd: app, ready: `127.0.0.1:${port}`, timeoutMs: 60_000 })
    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      await page.goto(`http://127.0.0.1:${port}/`)
      await page.getByLabel('Message').fill('Please greet someone')
      await page.getByRole('button', { name: 'Send' }).click()
      await page.getByLabel('Name').fill('Ada')
      await page.evaluate(() => ((window as { notReloaded?: boolean }).notReloaded = true))
      writeFileSync(form, source.replace('<button>Greet</button>', '<button>Greet them</button>'))
      await page.getByRole('button', { name: 'Greet them' }).waitFor({ timeout: 30_000 })
      expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true)
      expect(await page.getByLabel('Name').inputValue()).toBe('Ada')
      await page.getByRole('button', { name: 'Greet them' }).click()
      await page.getByText('Hello, Ada!').waitFor({ timeout: 30_000 })
    } finally {
      writeFileSync(form, source)
      await browser.close()
      await stop(dev)
    }
  }, 180_000)

  it('a dev server running before the MCP SDK is installed says what to install, and serves /mcp once it is — no restart', async () => {
    // The README's "serve it over MCP" step, taken before its optional peer is installed.
    const serverFile = join(app, 'src/server/app.ts')
    const original = readFileSync(serverFile, 'utf8')
    expect(existsSync(bin('@modelcontextprotocol/server'))).toBe(false)
    writeFileSync(
      serverFile,
      original
        .replace("import { serverTools }", "import { createMcpServer } from '@mcp-bridge/runtime/mcp'\nimport { serverTools }")
        .replace('export default createAppServer({ chat: createChatHandler({ tools: serverTools, model }) })', "const mcp = createMcpServer({ name: 'my-app', version: '1.0.0', tools: serverTools })\nexport default createAppServer({ chat: createChatHandler({ tools: serverTools, model }), mcp: mcp.createHandler() })"),
    )
    const port = await freePort()
    const dev = await start(node, [vite, '--strictPort', '--port', String(port), '--host', '127.0.0.1'], { cwd: app, ready: `127.0.0.1:${port}`, timeoutMs: 60_000 })
    let terminal = ''
    dev.stdout!.on('data', (d: Buffer) => (terminal += d.toString()))
    dev.stderr!.on('data', (d: Buffer) => (terminal += d.toString()))
    const base = `http://127.0.0.1:${port}/`
    try {
      const refused = await fetch(new URL('/api/chat', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages":[]}' })
      expect(refused.status).toBe(500)
      await expect.poll(() => terminal, { timeout: 10_000 }).toContain(
        '@mcp-bridge/runtime/mcp needs @modelcontextprotocol/server, which is not installed. Install it: npm install @modelcontextprotocol/server (a running dev server picks it up at its next request: no restart).',
      )
      expect(terminal).not.toContain('restart the dev server')

      const added = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '@modelcontextprotocol/server'], { cwd: app, timeoutMs: 240_000 })
      expect(added.code, added.output).toBe(0)
      // The same process, never restarted: the chat and the MCP endpoint both answer now.
      expect(await greetOverHttp(base, 'Barbara')).toBe('Hello, Barbara!')
      // A client that can answer questions (a tool that asks is not listed to one that cannot).
      const client = new Client({ name: 'late', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)))
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('greet')
      } finally {
        await client.close()
      }
      expect(dev.exitCode).toBe(null)
    } finally {
      await stop(dev)
      writeFileSync(serverFile, original)
    }
  }, 480_000)

  it('MCP Apps: with `apps: true` and an MCP endpoint, the built server serves the plugin as a self-contained view, and the view answers the call', async () => {
    // What a user adds for MCP Apps (README "MCP Apps"): the MCP server package, the option, the views.
    const added = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '@modelcontextprotocol/server'], { cwd: app, timeoutMs: 240_000 })
    expect(added.code, added.output).toBe(0)
    writeFileSync(join(app, 'vite.config.ts'), readFileSync(join(app, 'vite.config.ts'), 'utf8').replace("mcpBridge({ server: 'src/server/app.ts' })", "mcpBridge({ server: 'src/server/app.ts', apps: true })"))
    const server = readFileSync(join(app, 'src/server/app.ts'), 'utf8')
      .replace("import { serverTools } from '../mcp-bridge/server.gen.ts'", "import { createMcpServer } from '@mcp-bridge/runtime/mcp'\nimport { appViews, serverTools } from '../mcp-bridge/server.gen.ts'")
      .replace(
        'export default createAppServer({ chat: createChatHandler({ tools: serverTools, model }) })',
        "const mcp = createMcpServer({ name: 'my-app', version: '1.0.0', tools: serverTools, apps: { views: appViews } })\nexport default createAppServer({ chat: createChatHandler({ tools: serverTools, model }), mcp: mcp.createHandler() })",
      )
    expect(server).toContain('apps: { views: appViews }')
    writeFileSync(join(app, 'src/server/app.ts'), server)
    expect((await mcpBridge('generate')).code).toBe(0)
    const tsc = await exec(node, [bin('typescript/bin/tsc'), '-b'], { cwd: app, timeoutMs: 180_000 })
    expect(tsc.code, tsc.output).toBe(0)
    const build = await exec(node, [vite, 'build'], { cwd: app, timeoutMs: 180_000 })
    expect(build.code, build.output).toBe(0)
    expect(build.output).not.toMatch(/warn|\(!\)|externalized/i)
    expect(build.output).toMatch(/MCP Apps view dist\/mcp-apps\/greet\.html/)

    const port = await freePort()
    const served = await start(node, ['dist/server/index.js'], { cwd: app, env: userEnv({ PORT: String(port) }), ready: `127.0.0.1:${port}`, timeoutMs: 60_000 })
    const client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': {} } } })
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))
      const greetTool = (await client.listTools()).tools.find((t) => t.name === 'greet')
      expect(greetTool?._meta).toMatchObject({ ui: { resourceUri: 'ui://my-app/greet.html' } })
      const read = await client.readResource({ uri: 'ui://my-app/greet.html' })
      const html = (read.contents[0] as { text: string }).text
      expect(html).toMatch(/^<!doctype html>[\s\S]*<script type="module">/)
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/i)

      const result = client.callTool({ name: 'greet', arguments: {} }, { timeout: 60_000 })
      const view = async (name: string, args: Record<string, unknown>) => ((await client.callTool({ name, arguments: args })) as { structuredContent: Record<string, unknown> }).structuredContent
      let state = await view('mcp_bridge_view_next', { tool: 'greet', arguments: {} })
      const pass = { callId: state.callId, pass: state.pass }
      while (state.status !== 'question') state = await view('mcp_bridge_view_next', { tool: 'greet', ...pass, after: state.version })
      const question = state.question as { id: string }
      expect(await view('mcp_bridge_view_answer', { ...pass, elicitId: question.id, result: { action: 'accept', content: { name: 'Ada' } } })).toMatchObject({ status: 'accepted' })
      expect((await result).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }])
    } finally {
      await client.close()
      await stop(served)
    }
  }, 600_000)
})
