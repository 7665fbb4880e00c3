/**
 * The plugin in a real Vite dev server: options are validated, and adding, changing or deleting
 * a tool file regenerates the outputs (once per burst of events, no stale entries). Waits on the
 * plugin's own generation events, never on sleeps.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createLogger, createServer, type Logger, type Plugin } from 'vite'
import { mcpBridge, PeerMissingError, UnsupportedViteError, UnsupportedZodError } from '../src/index.ts'
import { tempProject } from './support/fixtures.ts'

const fixtures = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../fixtures')
const temps: string[] = []
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })))

interface Api {
  generations: number
  whenIdle(): Promise<void>
  whenWatching(): Promise<void>
  lastResult: { diagnostics: unknown[] } | undefined
}

/** A dev server (middleware mode, no HMR) on a temporary copy of fixtures/valid-basic. */
async function devServer() {
  const root = tempProject('dev')
  temps.push(root)
  cpSync(join(fixtures, 'valid-basic'), root, { recursive: true })
  return devServerAt(root)
}

async function devServerAt(root: string, customLogger?: Logger) {
  if (!temps.includes(root)) temps.push(root)
  const plugin = mcpBridge()
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    ...(customLogger && { customLogger }),
    plugins: [plugin],
    server: { middlewareMode: true, hmr: false },
  })
  return { root, api: plugin.api as Api, server }
}

/** A Vite logger that keeps what the plugin says (info, warn, error). */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  const base = createLogger('silent')
  const keep = (message: string) => void lines.push(message)
  return { ...base, lines, info: keep, warn: keep, warnOnce: keep, error: keep }
}

describe('mcpBridge() options', () => {
  it('rejects unknown options and bad values with the known list', () => {
    const configResolved = (p: Plugin) => (p.configResolved as (c: unknown) => void).bind({})
    const config = { root: '/app', command: 'build', logger: console }
    expect(() => configResolved(mcpBridge({ inlcude: ['x'] } as never))(config)).toThrow(
      'mcpBridge(): unknown option "inlcude" (known: include, exclude, outDir, manifest, publicManifest, failOnError, server, apps)',
    )
    expect(() => configResolved(mcpBridge({ manifest: 'out/tools.json' }))(config)).toThrow(/manifest: a file name ending in \.json/)
    expect(() => configResolved(mcpBridge({ failOnError: 'yes' } as never))(config)).toThrow(/failOnError/)
    expect(() => configResolved(mcpBridge({ publicManifest: 'yes' } as never))(config)).toThrow(/publicManifest: true or false/)
    expect(() => configResolved(mcpBridge({ server: { entry: 'src/app.ts', chatPath: 'api/chat' } }))(config)).toThrow(/server\.chatPath: a path starting with "\/"/)
    expect(() => configResolved(mcpBridge({ server: { entry: 'src/app.ts', chatPath: '/x', mcpPath: '/x' } }))(config)).toThrow(/both "\/x"; give each its own path/)
    expect(() => configResolved(mcpBridge({ server: { entry: 'src/app.ts', port: 3 } as never }))(config)).toThrow(
      'mcpBridge(): unknown option "server.port" (known: entry, chatPath, mcpPath)',
    )
    expect(() => configResolved(mcpBridge({ apps: 'yes' } as never))(config)).toThrow(/apps/)
    expect(() => configResolved(mcpBridge({ apps: { styles: 'a.css' } } as never))(config)).toThrow('mcpBridge(): unknown option "apps.styles" (known: include)')
  })
})

describe('mcpBridge() in dev', () => {
  it('regenerates when tool files are added, changed and deleted', async () => {
    const { root, api, server } = await devServer()
    try {
      const manifest = () => JSON.parse(readFileSync(join(root, 'src/mcp-bridge/mcp-tools.json'), 'utf8')).tools.map((t: { name: string }) => t.name)
      const next = async (change: () => void) => {
        const before = api.generations
        change()
        // Event-driven: wait until the watcher's event has produced a generation, then until idle;
        // bounded, so a lost event fails here, saying so, instead of hanging the suite.
        await vi.waitFor(() => expect(api.generations, 'no generation followed the change: a watcher event was lost').toBeGreaterThan(before), { timeout: 60_000, interval: 20 })
        await api.whenIdle()
      }
      // Changes are reported once the watcher's first scan is done; the plugin says when.
      await api.whenWatching()
      expect(manifest()).toEqual(['book_flight', 'clock'])

      const added = join(root, 'src/tools/weather.ts')
      await next(() =>
        writeFileSync(
          added,
          "import { createMcpTool } from '@mcp-bridge/runtime'\nexport const weather = createMcpTool('weather').elicits({}).execute(function* () { return 1 })\n",
        ),
      )
      expect(manifest()).toEqual(['book_flight', 'clock', 'weather'])

      await next(() => writeFileSync(added, readFileSync(added, 'utf8').replace("'weather'", "'forecast'")))
      expect(manifest()).toEqual(['book_flight', 'clock', 'forecast'])
      expect(readFileSync(join(root, 'src/mcp-bridge/server.gen.ts'), 'utf8')).toContain("import { weather as tool2 } from '../tools/weather'")

      await next(() => unlinkSync(added))
      expect(manifest()).toEqual(['book_flight', 'clock'])
      expect(readFileSync(join(root, 'src/mcp-bridge/server.gen.ts'), 'utf8')).not.toContain('weather')
    } finally {
      await server.close()
    }
  }, 120_000)
})

describe('mcpBridge() in dev, in the terminal', () => {
  it('prints a diagnostic once while it stands (not again on every edit), and says when problems are resolved', async () => {
    const root = tempProject('dev-print')
    cpSync(join(fixtures, 'valid-basic'), root, { recursive: true })
    const tool = join(root, 'src/tools/weather.ts')
    const broken =
      "import { createMcpTool } from '@mcp-bridge/runtime'\nimport { z } from 'zod'\nexport const weather = createMcpTool('weather').elicits({ where: z.object({ place: z.object({ city: z.string() }) }) }).execute(function* () { return 1 })\n"
    writeFileSync(tool, broken)
    const logger = recordingLogger()
    const { api, server } = await devServerAt(root, logger)
    try {
      await api.whenWatching()
      await api.whenIdle()
      const nested = () => logger.lines.filter((l) => l.includes('where.place: nested objects are not allowed'))
      expect(nested()).toHaveLength(1)
      // An edit elsewhere regenerates; the standing diagnostic is not printed again.
      const other = join(root, 'src/tools/note.ts')
      const before = api.generations
      writeFileSync(other, "import { createMcpTool } from '@mcp-bridge/runtime'\nexport const note = createMcpTool('note').elicits({}).execute(function* () { return 1 })\n")
      await vi.waitFor(() => expect(api.generations).toBeGreaterThan(before), { timeout: 60_000, interval: 20 })
      await api.whenIdle()
      expect(nested()).toHaveLength(1)
      // Fixed: one line says so.
      const again = api.generations
      writeFileSync(tool, broken.replace('z.object({ city: z.string() })', 'z.string()'))
      await vi.waitFor(() => expect(api.generations).toBeGreaterThan(again), { timeout: 60_000, interval: 20 })
      await api.whenIdle()
      expect(logger.lines.filter((l) => l.includes('resolved'))).toEqual(['[mcp-bridge] 1 diagnostic resolved; none left'])
    } finally {
      await server.close()
    }
  }, 120_000)
})

describe('mcpBridge() in dev, when the watcher starts late', () => {
  it('regenerates for a tool file written before the watcher was ready', async () => {
    const { root, api, server } = await devServer()
    try {
      // Written at once, as a script (or a loaded machine) does: the watcher may not be watching yet.
      writeFileSync(
        join(root, 'src/tools/early.ts'),
        "import { createMcpTool } from '@mcp-bridge/runtime'\nexport const early = createMcpTool('early').elicits({}).execute(function* () { return 1 })\n",
      )
      unlinkSync(join(root, 'src/tools/clock.ts'))
      await api.whenWatching()
      const names = JSON.parse(readFileSync(join(root, 'src/mcp-bridge/mcp-tools.json'), 'utf8')).tools.map((t: { name: string }) => t.name)
      expect(names).toEqual(['book_flight', 'early'])
    } finally {
      await server.close()
    }
  }, 120_000)
})

describe("mcpBridge() beside an app's tests", () => {
  it('stays inert under Vitest (mode "test"): modules load as written, nothing is generated', async () => {
    const root = tempProject('vitest-mode')
    cpSync(join(fixtures, 'valid-basic'), root, { recursive: true })
    const plugin = mcpBridge()
    const server = await createServer({ root, mode: 'test', configFile: false, logLevel: 'silent', plugins: [plugin], server: { middlewareMode: true, hmr: false } })
    try {
      const tool = await server.environments.client.transformRequest('/src/tools/clock.ts')
      expect(tool?.code).not.toContain('__mcpBridgeRemovedFromBundle') // not split: a test may call the tool
      await (plugin.api as Api).whenIdle() // a generation started would be waited for here
      expect((plugin.api as Api).generations).toBe(0)
    } finally {
      await server.close()
    }
  }, 60_000)

  it('never reads test files: a stub tool in a test (exported or not) is neither checked nor run', async () => {
    const root = tempProject('test-files')
    cpSync(join(fixtures, 'valid-basic'), root, { recursive: true })
    const stub =
      "import { createMcpTool } from '@mcp-bridge/runtime'\nthrow new Error('a test module ran at build time')\nconst stub = createMcpTool('stub').elicits({}).execute(function* () { return 1 })\n"
    mkdirSync(join(root, 'src/__tests__'), { recursive: true })
    writeFileSync(join(root, 'src/tools/clock.test.ts'), stub)
    writeFileSync(join(root, 'src/tools/clock.spec.tsx'), stub.replace('const stub', 'export const stub'))
    writeFileSync(join(root, 'src/__tests__/helpers.ts'), stub)
    const { server, api } = await devServerAt(root)
    try {
      await api.whenWatching()
      expect(api.lastResult?.diagnostics).toEqual([])
      expect(JSON.parse(readFileSync(join(root, 'src/mcp-bridge/mcp-tools.json'), 'utf8')).tools.map((t: { name: string }) => t.name)).toEqual(['book_flight', 'clock'])
    } finally {
      await server.close()
    }
  }, 60_000)
})

describe('mcpBridge() on an older Vite', () => {
  type ConfigHook = (this: unknown, user: Record<string, unknown>, env: { command: 'build' | 'serve'; mode: string }) => unknown
  const configOf = (p: Plugin) => p.config as unknown as ConfigHook

  it('stays inert where the config is loaded by a tool with a Vite of its own (vite-node, Vitest, an old Storybook builder)', async () => {
    const plugin = () => mcpBridge()
    // Vite 7+ says which Vite runs the config: another major than the app's is a tool's own.
    const foreign = plugin()
    expect(configOf(foreign).call({ meta: { viteVersion: '5.4.21' } }, {}, { command: 'serve', mode: 'development' })).toBeUndefined()
    expect((foreign.api as { options?: unknown }).options).toBeUndefined()
    // Vite 5 says nothing, and resolves a config without environments: inert too, no throw.
    const old = plugin()
    configOf(old).call(undefined, {}, { command: 'serve', mode: 'development' })
    const resolvedHook = old.configResolved as unknown as (this: unknown, c: Record<string, unknown>) => void
    expect(() => resolvedHook.call(undefined, { root: process.cwd(), command: 'serve', logger: console, inlineConfig: {}, environments: { server: {} } })).not.toThrow()
    // Inert: its hooks touch nothing (Vite 5 gives them no `this.environment`).
    const transform = (old.transform as unknown as { handler: (this: unknown, code: string, id: string) => Promise<unknown> }).handler
    await expect(transform.call({}, "import { createMcpTool } from '@mcp-bridge/runtime'", '/app/src/tool.ts')).resolves.toBeNull()
    expect(configOf(plugin()).call(undefined, {}, { command: 'serve', mode: 'test' })).toBeUndefined()
    expect(() => configOf(plugin()).call({ meta: { viteVersion: '8.3.8' } }, {}, { command: 'build', mode: 'production' })).not.toThrow()
  })

  it("refuses the app's own Vite 5 by name, with the upgrade line", () => {
    const error = new UnsupportedViteError('5.4.21')
    expect(error.code).toBe('VITE_VERSION_UNSUPPORTED')
    expect(error.message).toMatch(/^mcp-bridge needs Vite 6, 7 or 8, and this app runs Vite 5\.4\.21\. .*npm install -D vite@\^6/)
  })

  it('names a required peer the install left out (legacy-peer-deps), with the install line, when the config loads', () => {
    const root = tempProject('no-effection')
    try {
      rmSync(join(root, 'node_modules', 'effection'))
      const error = (() => {
        try {
          configOf(mcpBridge()).call({ meta: { viteVersion: '8.3.8' } }, { root }, { command: 'build', mode: 'production' })
        } catch (e) {
          return e as PeerMissingError
        }
      })()
      expect(error).toBeInstanceOf(PeerMissingError)
      expect(error!.code).toBe('PEER_MISSING')
      expect(error!.message).toMatch(
        /^mcp-bridge needs `effection`, required by @mcp-bridge\/runtime, and this app does not have it installed .*legacy-peer-deps.*Install: npm install effection@"\^4/,
      )
      // Under Vitest the plugin is inert: an app's tests are not stopped by it.
      expect(() => configOf(mcpBridge()).call({ meta: { viteVersion: '8.3.8' } }, { root }, { command: 'serve', mode: 'test' })).not.toThrow()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('refuses an app whose zod has no zod/v4 (older than 3.25.76), naming the version and the safe upgrade', () => {
    const root = tempProject('zod3')
    try {
      rmSync(join(root, 'node_modules', 'zod'))
      mkdirSync(join(root, 'node_modules', 'zod'))
      writeFileSync(join(root, 'node_modules', 'zod', 'package.json'), JSON.stringify({ name: 'zod', version: '3.24.2' }))
      const error = (() => {
        try {
          configOf(mcpBridge()).call({ meta: { viteVersion: '8.3.8' } }, { root }, { command: 'serve', mode: 'development' })
        } catch (e) {
          return e as UnsupportedZodError
        }
      })()
      expect(error).toBeInstanceOf(UnsupportedZodError)
      expect(error!.code).toBe('ZOD_VERSION_UNSUPPORTED')
      expect(error!.message).toMatch(
        /^mcp-bridge needs zod 4 schemas — zod 4\.x, or zod 3\.25\.76\+ through `import \{ z \} from 'zod\/v4'` — and this app has zod 3\.24\.2, .*npm install zod@\^3\.25\.76/,
      )
      // zod 3.25.76 (its zod/v4 is zod 4) passes.
      writeFileSync(join(root, 'node_modules', 'zod', 'package.json'), JSON.stringify({ name: 'zod', version: '3.25.76' }))
      expect(() => configOf(mcpBridge()).call({ meta: { viteVersion: '8.3.8' } }, { root }, { command: 'serve', mode: 'development' })).not.toThrow()
      // The repository's own zod 4 passes.
      expect(() => configOf(mcpBridge()).call({ meta: { viteVersion: '8.3.8' } }, { root: tempProject('zod4') }, { command: 'serve', mode: 'development' })).not.toThrow()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
