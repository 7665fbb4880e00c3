/**
 * The bundler-agnostic core: files → discovery → real schemas → diagnostics and generated files.
 * The Vite plugin and the `mcp-bridge` CLI both drive this one class, so their outputs are
 * identical; what it needs from a bundler (loading a module) is injected as a `ModuleLoader`.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { type Diagnostic, sortDiagnostics } from './diagnostics.ts'
import { crossCheck, discoverProject, relative, type FileDiscovery } from './discover.ts'
import { pluginKeyDiagnostics } from './plugin-keys.ts'
import {
  CLIENT_REGISTRY,
  SERVER_REGISTRY,
  renderClientRegistry,
  renderManifest,
  renderServerRegistry,
  type ManifestTool,
  type RegistryPlugin,
  type RegistryServedSet,
  type RegistryTool,
  type RegistryViews,
} from './codegen.ts'
import type { ModuleLoader } from './load-modules.ts'
import type { ResolvedOptions } from './options.ts'
import type { ParseCache } from './parsed-source.ts'
import type { ModuleCache } from './module-cache.ts'
import { listSources, mayHoldTools, toolSourceFiles } from './source-files.ts'
import { loadAndValidate } from './validate.ts'
import { readIfExists, writeIfChanged } from './write-if-changed.ts'
import { sameMeaning } from './same-meaning.ts'

/**
 * A generated file: its absolute path and content.
 */
export interface GeneratedFile {
  /** Absolute path. */
  path: string
  content: string
}

/**
 * What a generation found and made: diagnostics, the files (registries and manifest), the tool count and the app files it ran.
 */
export interface GenerateResult {
  diagnostics: Diagnostic[]
  files: GeneratedFile[]
  /** The manifest's content (also among `files`). */
  manifest: string
  toolCount: number
  /** Tools discovery found — `toolCount` of them valid (the rest are left out of the registries, with errors). */
  found?: number
  /** App files the generation evaluated (tool modules and everything they import). */
  inputs: string[]
}

export interface GenerateOptions {
  /** After a watcher's change: re-read only the changed files (see `#sources`). */
  incremental?: boolean
  /**
   * Told the registries (`server.gen.ts`, `client.gen.ts`) as soon as discovery knows them —
   * before any module runs — when discovery found no errors. They are the ones the result will
   * hold unless validation then finds errors (a tool that fails to load is left out): a build
   * can go on bundling the app while the tools are checked, and fails on those errors anyway.
   */
  onRegistries?: (files: GeneratedFile[]) => void
  /** The included files, listed by the caller (a generation session keeps the listing it passes). */
  files?: readonly string[]
}

export { CLIENT_REGISTRY, SERVER_REGISTRY } from './codegen.ts'

/**
 * The generator the plugin and the CLI share: discovers the tools, runs their modules (through a `ModuleLoader`)
 * to check their schemas, and returns the registries, the manifest and the diagnostics. For scripts and other
 * bundlers.
 *
 * @example
 * ```ts
 * import { McpBridgeGenerator, createBundledModuleLoader, projectOptions } from '@mcp-bridge/vite-plugin/core'
 *
 * const root = process.cwd()
 * const loader = createBundledModuleLoader(root)
 * try {
 *   const generator = new McpBridgeGenerator(await projectOptions(root), loader)
 *   const result = await generator.generate()
 *   console.log(result.toolCount, result.diagnostics)
 * } finally {
 *   await loader.close()
 * }
 * ```
 */
export class McpBridgeGenerator {
  /** Kept between runs so a regeneration re-reads only what changed (dev). */
  #discoveries = new Map<string, FileDiscovery>()
  /** The last listing: every included file, and those that may hold tools. */
  #included: Set<string> | undefined
  #toolFiles = new Set<string>()

  constructor(
    readonly options: ResolvedOptions,
    private readonly loader: ModuleLoader,
    /** A build's parse cache, shared with the split: each file parsed once per build. */
    private readonly parseCache?: ParseCache,
    /** Kept validation results per module (content-addressed): unchanged modules do not run. */
    private readonly moduleCache?: ModuleCache,
  ) {}

  /** The included source files that may hold tools (a cheap text pre-scan skips the rest). */
  sourceFiles(): Promise<string[]> {
    return toolSourceFiles(this.options)
  }

  /**
   * The files to discover. With `incremental` (a dev server whose watcher reports every change),
   * after a change to files already listed (or deleted) only those are read again; a file that
   * was not listed (a new one) means listing everything again — the include and exclude globs
   * decide whether it counts. Without it every run lists the files afresh, so an event that was
   * never reported (a watcher still starting) cannot hide a file.
   */
  async #sources(changed: readonly string[] | undefined, listed: readonly string[] | undefined): Promise<string[]> {
    const included = this.#included
    if (changed && included && changed.every((f) => included.has(f) || !existsSync(f))) {
      for (const file of changed) {
        const present = existsSync(file)
        if (!present) included.delete(file)
        if (present && mayHoldTools(file)) this.#toolFiles.add(file)
        else this.#toolFiles.delete(file)
      }
      return [...this.#toolFiles].sort()
    }
    const files = listed ? [...listed] : await listSources(this.options)
    this.#included = new Set(files)
    this.#toolFiles = new Set(files.filter(mayHoldTools))
    return [...this.#toolFiles]
  }

  /**
   * Generate everything. With `changed` (absolute paths, from a watcher), only those files are
   * re-parsed and re-loaded (plus their importers); the rest comes from the previous run.
   */
  async generate(changed?: readonly string[], { incremental = false, onRegistries, files: listed }: GenerateOptions = {}): Promise<GenerateResult> {
    const { root } = this.options
    const files = await this.#sources(incremental ? changed : undefined, listed)
    const discoveries = this.#discover(files, changed)
    // Discovery alone names every tool (a name that is not a literal is a discovery error): the
    // registries are known now, before any module runs, unless discovery found errors.
    if (onRegistries && !discoveries.some((d) => d.diagnostics.some((x) => x.severity === 'error'))) {
      const tools = discoveries.flatMap((d) => d.tools.filter((t) => t.exported).map((t) => ({ name: t.name, file: join(root, d.file), exportName: t.exportName })))
      onRegistries(this.#registries(tools, registryPlugins(root, discoveries), registryServed(root, discoveries)))
    }
    // A full generation (a build, the CLI, a dev server starting) asks the kept results; a
    // regeneration in dev has every unchanged module in memory already.
    const moduleCache = changed === undefined ? this.moduleCache : undefined
    const validation = await loadAndValidate(root, discoveries, this.loader, moduleCache)
    moduleCache?.save(new Set(discoveries.filter((d) => d.tools.length).map((d) => d.file)))
    const declared = new Map(validation.tools.map(({ facts, discovered, file }) => [`${file}#${discovered.exportName}`, facts.keys]))
    const keyProblems = pluginKeyDiagnostics(discoveries, (file, exportName) => declared.get(`${relative(root, file)}#${exportName}`))
    const diagnostics = sortDiagnostics([...discoveries.flatMap((d) => d.diagnostics), ...validation.diagnostics, ...keyProblems])

    const plugins = registryPlugins(root, discoveries)
    const pluginOf = new Map(plugins.map((p) => [p.toolName, p]))
    const pluginSource = new Map(discoveries.flatMap((d) => d.plugins.map((p) => [p.exportName + '@' + d.file, p.location] as const)))
    const manifestTools: ManifestTool[] = validation.tools.map(({ facts, discovered, file }) => {
      const plugin = pluginOf.get(facts.name)
      const pluginFile = plugin ? relative(root, plugin.file) : undefined
      const pluginLocation = plugin ? pluginSource.get(`${plugin.exportName}@${pluginFile}`) : undefined
      const { keys: _keys, ...entry } = facts
      return {
        ...entry,
        source: { ...discovered.location, file, export: discovered.exportName },
        plugin: plugin && pluginLocation ? { ...pluginLocation, export: plugin.exportName } : null,
      }
    })
    const registryTools = validation.tools.map(({ facts, discovered, file }) => ({ name: facts.name, file: join(root, file), exportName: discovered.exportName }))
    const served = registryServed(root, discoveries)
    const sourceOf = (kind: 'prompts' | 'resources') =>
      discoveries.flatMap((d) => d[kind].filter((x) => x.exported).map((x) => ({ name: x.name, source: { ...x.location, export: x.exportName } })))
    const manifest = renderManifest(
      manifestTools,
      sourceOf('prompts'),
      sourceOf('resources').map(({ name, source }) => ({ uri: name, source })),
    )
    return {
      diagnostics,
      manifest,
      toolCount: registryTools.length,
      found: discoveries.reduce((n, d) => n + d.tools.length, 0),
      // Kept module results were not run, but what they depend on counts as much as what ran.
      inputs: [...new Set([...this.loader.loadedFiles(), ...validation.keptInputs])].sort(),
      files: [...this.#registries(registryTools, plugins, served), { path: join(this.options.outDir, this.options.manifest), content: manifest }],
    }
  }

  /** `server.gen.ts` and `client.gen.ts`: these tools, and the plugins of those tools (with `apps`, their views). */
  #registries(tools: readonly RegistryTool[], plugins: readonly RegistryPlugin[], servedSet: RegistryServedSet): GeneratedFile[] {
    const { outDir, apps, root } = this.options
    const names = new Set(tools.map((t) => t.name))
    const served = plugins.filter((p) => names.has(p.toolName))
    const views: RegistryViews | undefined = apps ? { root, include: apps.include, tools: [...new Set(served.map((p) => p.toolName))] } : undefined
    return [
      { path: join(outDir, SERVER_REGISTRY), content: renderServerRegistry(outDir, tools, views, servedSet) },
      { path: join(outDir, CLIENT_REGISTRY), content: renderClientRegistry(outDir, served) },
    ]
  }

  #discover(files: readonly string[], changed: readonly string[] | undefined): FileDiscovery[] {
    if (changed === undefined) {
      this.#discoveries.clear()
    } else {
      this.loader.invalidate(changed)
      const present = new Set(files)
      for (const file of [...this.#discoveries.keys()]) if (!present.has(file) || changed.includes(file)) this.#discoveries.delete(file)
    }
    // A plugin's tool is resolved through other files (its import): a plugin file is read again
    // when one of those changed (the tool may have moved), not on every regeneration.
    const touched = new Set(changed ?? [])
    const stale = files.filter((f) => {
      const known = this.#discoveries.get(f)
      return !known || known.plugins.some((p) => p.dependsOn.some((d) => touched.has(d)))
    })
    const fresh = discoverProject(this.options.root, stale, this.parseCache)
    stale.forEach((f, i) => this.#discoveries.set(f, fresh[i]!))
    return crossCheck(files.map((f) => this.#discoveries.get(f)!))
  }

  /** Write what changed; returns the paths written. */
  write(result: GenerateResult): string[] {
    return result.files.filter((f) => writeIfChanged(f.path, f.content)).map((f) => f.path)
  }

  /** Generated files on disk that differ from what the sources produce now. */
  stale(result: GenerateResult): Diagnostic[] {
    return result.files
      .filter((f) => {
        const onDisk = readIfExists(f.path)
        return onDisk === undefined || !sameMeaning(f.path, onDisk, f.content)
      })
      .map((f) => ({
        file: relative(this.options.root, f.path),
        line: 1,
        column: 1,
        severity: 'error' as const,
        code: 'STALE_OUTPUT' as const,
        message: `${readIfExists(f.path) === undefined ? 'Missing' : 'Out of date'}: this generated file does not match the sources; run \`mcp-bridge generate\` and commit the result.`,
      }))
  }
}

function registryPlugins(root: string, discoveries: readonly FileDiscovery[]): RegistryPlugin[] {
  const toolNames = new Map<string, string>()
  for (const d of discoveries) for (const t of d.tools) toolNames.set(`${d.file}#${t.exportName}`, t.name)
  const plugins: RegistryPlugin[] = []
  for (const d of discoveries) {
    for (const p of d.plugins) {
      const toolName = p.tool && toolNames.get(`${p.tool.file}#${p.tool.exportName}`)
      if (toolName) plugins.push({ toolName, file: join(root, d.file), exportName: p.exportName })
    }
  }
  return plugins
}

/** The exported prompts and resources discovery found: the server registry imports each (duplicates are errors already). */
function registryServed(root: string, discoveries: readonly FileDiscovery[]): RegistryServedSet {
  const of = (kind: 'prompts' | 'resources') =>
    discoveries.flatMap((d) => d[kind].filter((x) => x.exported).map((x) => ({ name: x.name, file: join(root, d.file), exportName: x.exportName })))
  return { prompts: of('prompts'), resources: of('resources') }
}
