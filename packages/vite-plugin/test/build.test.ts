/**
 * The split, proven with real Vite builds of a fixture app: the client chunks never contain the
 * server-only marker, the server bundle never contains the React component's marker, the built
 * server still runs the tool, and a server-only import leaking into client code fails the build.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import MagicString from 'magic-string'
import { build, createBuilder, createLogger, createServer, type Plugin, type Rolldown } from 'vite'
import { mcpBridge } from '../src/index.ts'
import { tmpdir } from 'node:os'
import { tempProject } from './support/fixtures.ts'

const fixtures = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../fixtures')
const outputs: string[] = []
afterAll(() => outputs.forEach((o) => rmSync(o, { recursive: true, force: true })))

function allText(dir: string): string {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => /\.(js|mjs|css|html|json)$/.test(f))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n')
}

interface SourceMapJson {
  sources: string[]
  sourcesContent?: (string | null)[]
}

/** Every source map of a build output: `.map` files and maps inlined into the JS as data URLs. */
function mapsIn(dir: string): SourceMapJson[] {
  const files = readdirSync(dir, { recursive: true }) as string[]
  const inline = files
    .filter((f) => /\.m?js$/.test(f))
    .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)/g)])
    .map((m) => JSON.parse(Buffer.from(m[1]!, 'base64').toString('utf8')) as SourceMapJson)
  return [...files.filter((f) => f.endsWith('.map')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as SourceMapJson), ...inline]
}

/** A temporary copy of the split fixture app (a project of its own in the temp folder), removed afterwards. */
function copyOfSplitApp(purpose: string): string {
  const root = tempProject(purpose)
  outputs.push(root)
  cpSync(join(fixtures, 'split-app'), root, { recursive: true })
  return root
}

async function buildApp(name: string, target: 'client' | 'server', plugin = mcpBridge(), rootDir = join(fixtures, name), sourcemap = false) {
  const root = rootDir
  const outDir = mkdtempSync(join(tmpdir(), `mcp-bridge-build-${name}-${target}-`))
  outputs.push(outDir)
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [plugin],
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      sourcemap,
      ...(target === 'client' ? { rollupOptions: { input: join(root, 'src/client.ts') } } : { ssr: join(root, 'src/server.ts') }),
    },
  })
  return outDir
}

describe('vite build with mcpBridge()', () => {
  it('keeps server code out of client chunks and components out of the server bundle; the app still works', async () => {
    const client = await buildApp('split-app', 'client', mcpBridge({ publicManifest: true }))
    const server = await buildApp('split-app', 'server')
    const clientText = allText(client)
    const serverText = allText(server)

    expect(clientText).not.toContain('SERVER_ONLY_MARKER_7f3a9c')
    expect(clientText).toContain('CLIENT_COMPONENT_MARKER_91bc2e')
    expect(serverText).not.toContain('CLIENT_COMPONENT_MARKER_91bc2e')
    expect(serverText).toContain('SERVER_ONLY_MARKER_7f3a9c')

    const manifest = JSON.parse(readFileSync(join(client, 'mcp-tools.json'), 'utf8'))
    expect(manifest.tools.map((t: { name: string }) => t.name)).toEqual(['pick_flight'])
    // Without publicManifest the manifest (schemas, source paths) stays out of what the app serves.
    expect(existsSync(join(await buildApp('split-app', 'client', mcpBridge(), join(fixtures, 'split-app')), 'mcp-tools.json'))).toBe(false)

    const serverEntry = (readdirSync(server) as string[]).find((f) => f.endsWith('.js') || f.endsWith('.mjs'))!
    const { book } = (await import(pathToFileURL(join(server, serverEntry)).href)) as { book(from: string): Promise<{ status: string; result: string }> }
    const run = await book('OSL')
    expect(run).toMatchObject({ status: 'completed', result: `OSL:SERVER_ONLY_MARKER_7f3a9c (${'SERVER_ONLY_MARKER_7f3a9c'.length})` })
  }, 120_000)

  it('keeps tool bodies out of client source maps, which still map the plugin code', async () => {
    const client = await buildApp('split-app', 'client', mcpBridge(), join(fixtures, 'split-app'), true)
    const parsed = mapsIn(client)
    expect(parsed.length).toBeGreaterThan(0)
    const content = parsed.flatMap((m) => m.sourcesContent ?? []).join('\n')
    // The tool module is still a source (its chain maps back), but only what the bundle kept of it.
    expect(parsed.flatMap((m) => m.sources).some((s) => s.endsWith('tool.ts'))).toBe(true)
    expect(content).toContain("createMcpTool('pick_flight')")
    expect(content).not.toContain('TOOL_BODY_MARKER_4e2b81')
    expect(content).not.toContain('lookupFlights')
    expect(content).not.toContain('SERVER_ONLY_MARKER_7f3a9c')
    expect(content).toContain('CLIENT_COMPONENT_MARKER_91bc2e')

    // And the other way: the server bundle's maps carry no component code.
    const server = await buildApp('split-app', 'server', mcpBridge(), join(fixtures, 'split-app'), true)
    const serverContent = mapsIn(server)
      .flatMap((m) => m.sourcesContent ?? [])
      .join('\n')
    expect(serverContent).toContain('TOOL_BODY_MARKER_4e2b81')
    expect(serverContent).not.toContain('ctx.render(Picker')
  }, 120_000)

  it('keeps tool bodies out of client source maps when an earlier plugin mapped the original source', async () => {
    // A `pre` plugin whose map embeds the untouched file: the bottom of the map chain, where
    // the bundler takes sourcesContent from.
    const banner: Plugin = {
      name: 'banner',
      enforce: 'pre',
      transform(code, id) {
        if (!id.endsWith('tool.ts')) return null
        const s = new MagicString(code).prepend('/* banner */\n')
        return { code: s.toString(), map: s.generateMap({ source: id, includeContent: true, hires: true }) }
      },
    }
    const root = join(fixtures, 'split-app')
    for (const sourcemap of [true, 'inline', 'hidden'] as const) {
      const outDir = mkdtempSync(join(tmpdir(), `mcp-bridge-maps-pre-${sourcemap}-`))
      outputs.push(outDir)
      await build({
        root,
        configFile: false,
        logLevel: 'silent',
        plugins: [banner, mcpBridge()],
        build: { outDir, emptyOutDir: true, minify: false, sourcemap, rollupOptions: { input: join(root, 'src/client.ts') } },
      })
      const content = mapsIn(outDir)
        .flatMap((m) => m.sourcesContent ?? [])
        .join('\n')
      expect(content, `sourcemap: ${sourcemap}`).toContain("createMcpTool('pick_flight')")
      expect(content, `sourcemap: ${sourcemap}`).not.toContain('TOOL_BODY_MARKER_4e2b81')
      expect(content, `sourcemap: ${sourcemap}`).not.toContain('lookupFlights')
    }
  }, 120_000)

  it('parses each file once per build: discovery and the split share the parse', async () => {
    const root = copyOfSplitApp('one-parse')
    const plugin = mcpBridge()
    await buildApp('split-app', 'client', plugin, root)
    const { parses, reused, files } = (plugin.api as { parses: { parses: number; reused: number; files: number } }).parses
    // Discovery read the tool and plugin files, and the split transformed the tool file: one
    // parse each, the split getting discovery's.
    expect(files).toBeGreaterThanOrEqual(2)
    expect(parses).toBe(files)
    expect(reused).toBeGreaterThanOrEqual(1)
    expect((plugin.api as { fromCache: boolean }).fromCache).toBe(false)
  }, 120_000)

  it('reuses the last generation when nothing changed, and regenerates after a source change', async () => {
    const root = copyOfSplitApp('cache')
    const first = mcpBridge()
    await buildApp('split-app', 'client', first, root)
    expect((first.api as { fromCache: boolean }).fromCache).toBe(false)
    const second = mcpBridge()
    await buildApp('split-app', 'client', second, root)
    expect((second.api as { fromCache: boolean }).fromCache).toBe(true)
    const tool = join(root, 'src/tool.ts')
    writeFileSync(tool, readFileSync(tool, 'utf8').replace("description('Pick a flight')", "description('Pick a flight, now')"))
    const third = mcpBridge()
    await buildApp('split-app', 'client', third, root)
    expect((third.api as { fromCache: boolean }).fromCache).toBe(false)
    expect(readFileSync(join(root, 'src/mcp-bridge/mcp-tools.json'), 'utf8')).toContain('Pick a flight, now')

    // A module the tool imports from outside `include` is an input too.
    const narrow = () => mcpBridge({ include: ['src/tool.ts', 'src/plugin.tsx'] })
    await buildApp('split-app', 'client', narrow(), root)
    const again = narrow()
    await buildApp('split-app', 'client', again, root)
    expect((again.api as { fromCache: boolean }).fromCache).toBe(true)
    const serverOnly = join(root, 'src/server-only.ts')
    writeFileSync(serverOnly, `${readFileSync(serverOnly, 'utf8')}\nexport const extra = 1\n`)
    const changed = narrow()
    await buildApp('split-app', 'client', changed, root)
    expect((changed.api as { fromCache: boolean }).fromCache).toBe(false)
  }, 120_000)

  it('fails the build when a .server module reaches a client chunk from a plugin, naming the import chain', async () => {
    await expect(buildApp('split-leak', 'client')).rejects.toThrow(
      /server-only code reached a client chunk\.\nsrc\/flights\.server\.ts \(a \.server module\) is in the client chunk .*\.js, imported by src\/client\.ts → src\/mcp-bridge\/client\.gen\.ts → src\/plugin\.tsx → src\/flights\.server\.ts|imported by src\/plugin\.tsx → src\/flights\.server\.ts/,
    )
  }, 120_000)

  describe('server-only code a tool file keeps', () => {
    const tool = (body: string) =>
      [
        "import { AsyncLocalStorage } from 'node:async_hooks'",
        "import { createMcpTool, createPlugin } from '@mcp-bridge/runtime'",
        "import { z } from 'zod'",
        'const requestContext = new AsyncLocalStorage<{ cookie: string }>()',
        "export const cookie = () => requestContext.getStore()?.cookie ?? ''",
        "export const pickFlight = createMcpTool('pick_flight').description('Pick a flight').parameters(z.object({ from: z.string() }))",
        '  .elicits({ choose: { response: z.object({ flightId: z.string() }), context: z.object({ flights: z.array(z.string()) }) } })',
        '  .execute(function* () { return cookie() })',
        body,
      ].join('\n')
    const withTool = (purpose: string, code: string, plugin?: string) => {
      const root = copyOfSplitApp(purpose)
      writeFileSync(join(root, 'src/tool.ts'), code)
      if (plugin) writeFileSync(join(root, 'src/plugin.tsx'), plugin)
      return root
    }

    it('fails at file:line with the chain of uses when the client surely runs it', async () => {
      const root = withTool('leak-sure', tool('void createPlugin\n;(globalThis as { cookieOf?: unknown }).cookieOf = cookie'))
      const error = (await buildApp('split-app', 'client', mcpBridge(), root).catch((e: unknown) => e)) as Error
      expect(error.message).toContain('mcp-bridge: server-only code would reach the browser.')
      expect(error.message).toContain('src/tool.ts:1:1  node:async_hooks (a Node built-in module) is kept in the client bundle by:')
      expect(error.message).toMatch(
        /the import of `AsyncLocalStorage` \(1:10\)\n\s+used at 4:28 by `requestContext` \(4:7\)\n\s+used at 5:29 by the export `cookie`\n\s+used at 10:52 by a top-level statement/,
      )
      expect(error.message).toContain('Move the server code into the tool body')
    }, 120_000)

    it('in dev, the module fails to load with the same report (what the error overlay shows)', async () => {
      const root = withTool('leak-dev', tool('void createPlugin\n;(globalThis as { cookieOf?: unknown }).cookieOf = cookie'))
      const server = await createServer({ root, configFile: false, logLevel: 'silent', plugins: [mcpBridge()], server: { middlewareMode: true, ws: false } })
      try {
        const error = (await server.environments.client.transformRequest('/src/tool.ts').catch((e: unknown) => e)) as Error & { loc?: { line: number } }
        expect(error.message).toContain('src/tool.ts:1:1  node:async_hooks (a Node built-in module) is kept in the client bundle by:')
        expect(error.loc?.line).toBe(1)
        // The server side is not the client's business: it loads the same file as written.
        expect((await server.environments.ssr.transformRequest('/src/tool.ts'))?.code).toContain('AsyncLocalStorage')
      } finally {
        await server.close()
      }
    }, 120_000)

    it('builds when only an export the bundle drops keeps it, and fails when what ships runs it', async () => {
      // Built only when called: the bundler drops the unused export, and the import with it.
      const dropped = withTool(
        'leak-dropped',
        tool('')
          .replace('const requestContext = new AsyncLocalStorage<{ cookie: string }>()', 'const requestContext = () => new AsyncLocalStorage<{ cookie: string }>()')
          .replace('requestContext.getStore()', 'requestContext().getStore()'),
      )
      const out = await buildApp('split-app', 'client', mcpBridge(), dropped)
      // (The runtime names node:async_hooks in a lazy import of its own; the tool brings nothing of it.)
      expect(allText(out)).not.toMatch(/AsyncLocalStorage|__vite-browser-external/)

      const used = withTool(
        'leak-used',
        tool(''),
        "import { createPlugin } from '@mcp-bridge/runtime'\nimport { cookie, pickFlight } from './tool.ts'\nexport const pickFlightPlugin = createPlugin(pickFlight).onElicit({ *choose() { return { action: 'accept', content: { flightId: cookie() } } } }).build()\n",
      )
      const error = (await buildApp('split-app', 'client', mcpBridge(), used).catch((e: unknown) => e)) as Error
      expect(error.message).toMatch(/node:async_hooks \(a Node built-in module\) is in the client chunk .*, imported by src\/tool\.ts → node:async_hooks\./)
      expect(error.message).toMatch(/In src\/tool\.ts, the client keeps it because of:\n\s+the import of `AsyncLocalStorage` \(1:10\)/)
    }, 120_000)

    it("never resolves an import the split removed again: another plugin's guard on .server modules is not tripped", async () => {
      const root = copyOfSplitApp('server-guard')
      writeFileSync(join(root, 'src/db.server.ts'), "export const SECRET = 'SERVER_ONLY_MARKER_7f3a9c'\nexport const query = (from: string) => [`${from}:${SECRET}`]\n")
      writeFileSync(
        join(root, 'src/tool.ts'),
        readFileSync(join(root, 'src/tool.ts'), 'utf8')
          .replace("from './server-only.ts'", "from './db.server.ts'")
          .replace('lookupFlights, SERVER_SECRET', 'query as lookupFlights, SECRET as SERVER_SECRET'),
      )
      // React Router's rule, as its plugin enforces it: a client build may not resolve a .server module.
      const guard: Plugin = {
        name: 'server-module-guard',
        enforce: 'pre',
        resolveId(id, importer) {
          if (this.environment.config.consumer === 'client' && /\.server(\.[jt]sx?)?$/.test(id)) throw new Error(`Server-only module referenced by client: ${id} from ${importer}`)
          return null
        },
      }
      const out = await buildApp('split-app', 'client', mcpBridge(), root)
      expect(allText(out)).not.toContain('SERVER_ONLY_MARKER_7f3a9c')
      await expect(
        build({
          root,
          configFile: false,
          logLevel: 'silent',
          plugins: [guard, mcpBridge()],
          build: { outDir: join(root, 'guarded'), rollupOptions: { input: join(root, 'src/client.ts') } },
        }),
      ).resolves.toBeDefined()
    }, 120_000)
  })

  it('bundles what this build generated, never a stale generated file on disk', async () => {
    const root = copyOfSplitApp('stale')
    const registry = join(root, 'src/mcp-bridge/client.gen.ts')
    writeFileSync(registry, "export const clientPlugins = ['STALE_REGISTRY_MARKER']\n")
    const client = await buildApp('split-app', 'client', mcpBridge(), root)
    expect(allText(client)).not.toContain('STALE_REGISTRY_MARKER')
    expect(allText(client)).toContain('CLIENT_COMPONENT_MARKER_91bc2e')
    expect(readFileSync(registry, 'utf8')).toBe(readFileSync(join(fixtures, 'split-app/src/mcp-bridge/client.gen.ts'), 'utf8'))
  }, 120_000)

  it('fails the build on schema errors, naming each at file:line:col; failOnError: false only warns', async () => {
    const root = copyOfSplitApp('errors')
    const tool = join(root, 'src/tool.ts')
    writeFileSync(tool, readFileSync(tool, 'utf8').replace('response: z.object({', 'response: z.object({ nested: z.object({ a: z.string() }),'))
    const failed = buildApp('split-app', 'client', mcpBridge(), root)
    await expect(failed).rejects.toThrow(/mcp-bridge found 1 error:\nsrc\/tool\.ts:8:45  pick_flight › choose\.nested: nested objects are not allowed; flatten the fields/)
    // What the build prints holds the diagnostics, not the plugin's call stack under them.
    const printed = String(((await failed.catch((e: unknown) => e)) as Error).stack)
    expect(printed).toContain('[plugin mcp-bridge]')
    expect(printed).not.toMatch(/at (report|PluginContextImpl\.buildEnd) /)

    const warnings: string[] = []
    const outDir = join(root, 'dist')
    await build({
      root,
      configFile: false,
      logLevel: 'warn',
      customLogger: {
        ...console,
        info() {},
        warn: (m: string) => warnings.push(m),
        warnOnce: (m: string) => warnings.push(m),
        error() {},
        clearScreen() {},
        hasErrorLogged: () => false,
        hasWarned: false,
      },
      plugins: [mcpBridge({ failOnError: false })],
      build: { outDir, emptyOutDir: true, rollupOptions: { input: join(root, 'src/client.ts') } },
    })
    expect(warnings.join('\n')).toMatch(/\[mcp-bridge\] src\/tool\.ts:8:45  pick_flight › choose\.nested: nested objects are not allowed/)
  }, 120_000)

  it("answers the app's import of the registries from discovery, before any tool module has run, and still fails on a tool that then does not load", async () => {
    // A tool whose top-level code waits until the bundler has loaded client.gen.ts: the build
    // can only finish if that import was answered before the tools were run and checked.
    const gate = globalThis as { registryLoaded?: Promise<void> }
    const slowTool = (then: string) =>
      `import { createMcpTool } from '@mcp-bridge/runtime'\nawait (globalThis as { registryLoaded?: Promise<void> }).registryLoaded\n${then}\nexport const slow = createMcpTool('slow_tool').description('Waits for the registry').elicits({}).execute(function* () {\n  return 'ok'\n})\n`
    const buildGated = async (root: string) => {
      let opened!: () => void
      gate.registryLoaded = new Promise((resolve) => (opened = resolve))
      const spy = { name: 'registry-spy', transform: (_code: string, id: string) => void (id.endsWith('client.gen.ts') && opened()) }
      await build({
        root,
        configFile: false,
        logLevel: 'silent',
        plugins: [mcpBridge({ publicManifest: true }), spy],
        build: { outDir: join(root, 'dist'), emptyOutDir: true, rollupOptions: { input: join(root, 'src/client.ts') } },
      })
    }
    try {
      const root = copyOfSplitApp('early-registries')
      writeFileSync(join(root, 'src/slow-tool.ts'), slowTool(''))
      await buildGated(root)
      expect(JSON.parse(readFileSync(join(root, 'dist/mcp-tools.json'), 'utf8')).tools.map((t: { name: string }) => t.name)).toEqual(['pick_flight', 'slow_tool'])

      const failing = copyOfSplitApp('early-registries-fail')
      writeFileSync(join(failing, 'src/slow-tool.ts'), slowTool("throw new Error('the slow tool cannot start')"))
      await expect(buildGated(failing)).rejects.toThrow(/src\/slow-tool\.ts:1:1  Loading this module failed, so its tools could not be checked: the slow tool cannot start/)
    } finally {
      delete gate.registryLoaded
    }
  }, 120_000)

  it('regenerates on each rebuild of vite build --watch when a tool changes', async () => {
    const root = copyOfSplitApp('watch')
    const manifest = () => readFileSync(join(root, 'src/mcp-bridge/mcp-tools.json'), 'utf8')
    const watcher = (await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [mcpBridge()],
      build: { outDir: join(root, 'dist'), watch: {}, rollupOptions: { input: join(root, 'src/client.ts') } },
    })) as Rolldown.RolldownWatcher
    // Resolves on the watcher's next finished build (or its error), so the test never sleeps.
    const nextBuild = () =>
      new Promise<void>((done, fail) => {
        const onEvent = (event: Rolldown.RolldownWatcherEvent) => {
          if (event.code !== 'BUNDLE_END' && event.code !== 'ERROR') return
          watcher.off('event', onEvent)
          void event.result.close()
          if (event.code === 'ERROR') fail(event.error)
          else done()
        }
        watcher.on('event', onEvent)
      })
    try {
      await nextBuild()
      expect(manifest()).toContain('"description": "Pick a flight"')
      const tool = join(root, 'src/tool.ts')
      const rebuilt = nextBuild()
      writeFileSync(tool, readFileSync(tool, 'utf8').replace("description('Pick a flight')", "description('Pick a flight, watched')"))
      await rebuilt
      expect(manifest()).toContain('"description": "Pick a flight, watched"')
    } finally {
      await watcher.close()
    }
  }, 120_000)
})

describe('vite build with server: the client and the server environment', () => {
  it('prints a warning about a module both import once, not once per environment', async () => {
    const root = copyOfSplitApp('warn-once')
    writeFileSync(join(root, 'src/evil.ts'), 'export const run = (code: string) => eval(code)\n')
    writeFileSync(join(root, 'index.html'), '<!doctype html><html><body><script type="module" src="/src/main.ts"></script></body></html>\n')
    writeFileSync(join(root, 'src/main.ts'), "import { run } from './evil.ts'\nimport './client.ts'\nvoid run\n")
    writeFileSync(
      join(root, 'src/app.ts'),
      "import { createAppServer, createChatHandler } from '@mcp-bridge/runtime/server'\nimport { createScriptedModel } from '@mcp-bridge/runtime/testing'\nimport { run } from './evil.ts'\nvoid run\nexport default createAppServer({ chat: createChatHandler({ tools: [], model: createScriptedModel({}) }) })\n",
    )
    const warnings: string[] = []
    const logger = {
      ...createLogger('warn', { allowClearScreen: false }),
      info: () => {},
      warn: (m: string) => void warnings.push(m),
      warnOnce: (m: string) => void warnings.push(m),
    }
    const builder = await createBuilder({ root, configFile: false, customLogger: logger, plugins: [mcpBridge({ server: 'src/app.ts' })] })
    await builder.buildApp()
    expect(readdirSync(join(root, 'dist/server'))).toContain('index.mjs')
    expect(warnings.filter((w) => /direct `eval`/.test(w))).toHaveLength(1)
  }, 120_000)
})
