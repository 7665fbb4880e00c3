/**
 * Static discovery: find every `createMcpTool(...)` and `createPlugin(...)` chain — and every
 * `createMcpPrompt(...)` and `createMcpResource(...)`, for the server registry — and record where
 * things are, on the parser Vite ships (oxc) and the same chain matcher as the split
 * (`chains.ts`). Only calls bound to `@mcp-bridge/runtime` count — named imports (renamed or
 * not) and namespace imports — so a same-named function from elsewhere is ignored. Schema
 * *facts* do not come from here (the real zod objects are loaded later); this module knows
 * names, exports and exact source positions, so every later report can point at code.
 */
import { readFileSync } from 'node:fs'
import { toolNameProblem } from '@mcp-bridge/runtime/build'
import { chainOf, factoryOf, hasBindings, objectKeys, runtimeBindings, type Step } from './chains.ts'
import type { Diagnostic, SourceLocation } from './diagnostics.ts'
import { SourceParseError } from './errors.ts'
import { keyName, type EsNode } from './estree.ts'
import { SourceReader, type ParseCache, type ParsedSource } from './parsed-source.ts'
import { mayContainTools, PLUGIN_FACTORY, PROMPT_FACTORY, RESOURCE_FACTORY, RUNTIME_MODULE, TOOL_FACTORY } from './patterns.ts'
import { exportNameOf, resolveVariable } from './resolve-export.ts'

export interface DiscoveredProperty {
  name: string
  location: SourceLocation
}

export interface DiscoveredElicitKey {
  key: string
  location: SourceLocation
  /** Properties of the response schema when it is written inline as `z.object({...})`. */
  properties: DiscoveredProperty[] | undefined
  hasContext: boolean
}

export interface DiscoveredTool {
  name: string
  /** The export that holds the tool (`default` for a default export; the local name when unexported). */
  exportName: string
  /** False for a top-level tool that is not exported (reported; the registries cannot import it). */
  exported: boolean
  location: SourceLocation
  /** Where `.elicits(...)` is called. */
  elicitsLocation: SourceLocation | undefined
  /** Keys written inline in `.elicits({...})`; undefined when the map is built elsewhere. */
  elicits: DiscoveredElicitKey[] | undefined
}

export interface DiscoveredPlugin {
  exportName: string
  location: SourceLocation
  /** The tool it wraps, resolved through imports; undefined if it could not be resolved statically. */
  tool: { file: string; exportName: string } | undefined
  /** The keys of its `.onElicit({...})`, when the source says them plainly (an object literal). */
  handlerKeys: string[] | undefined
  /** Where `.onElicit(...)` is called, for diagnostics about its keys. */
  onElicitLocation: SourceLocation | undefined
  /** Other files read to resolve its tool (absolute paths): when one changes, this plugin is read again. */
  dependsOn: string[]
}

/** A prompt (`createMcpPrompt('name')`) or resource (`createMcpResource('uri')`): its name or URI and where it is exported. */
export interface DiscoveredServed {
  /** The prompt's name, or the resource's URI (or URI template). */
  name: string
  exportName: string
  exported: boolean
  location: SourceLocation
}

export interface FileDiscovery {
  file: string
  tools: DiscoveredTool[]
  plugins: DiscoveredPlugin[]
  prompts: DiscoveredServed[]
  resources: DiscoveredServed[]
  diagnostics: Diagnostic[]
}

/** What a file holds when it holds nothing. */
export function emptyDiscovery(file: string, diagnostics: Diagnostic[] = []): FileDiscovery {
  return { file, tools: [], plugins: [], prompts: [], resources: [], diagnostics }
}

type Report = (node: EsNode, code: Diagnostic['code'], message: string) => void

export function discoverFile(source: ParsedSource, relativePath: string, reader: SourceReader): FileDiscovery {
  const result = emptyDiscovery(relativePath)
  const at = (node: EsNode): SourceLocation => ({ file: relativePath, ...source.position(node.start) })
  const report: Report = (node, code, message) => result.diagnostics.push({ ...at(node), severity: 'error', code, message })

  reportReExports(source.program, report)
  const bindings = runtimeBindings(source.program)
  if (!hasBindings(bindings)) return result

  const calls: EsNode[] = []
  for (const node of source.parents.keys()) if (node.type === 'CallExpression' && factoryOf(node, bindings)) calls.push(node)
  calls.sort((a, b) => a.start - b.start)
  for (const call of calls) {
    const factory = factoryOf(call, bindings)!
    const chain = chainOf(call, source.parents)
    const holder = exportHolder(source, chain.top)
    if (holder.kind === 'nested') {
      report(
        call,
        'WRAPPED_CALL',
        `${factory} is called inside a function or expression, which discovery cannot follow. ` +
          `Define ${WHAT[factory]} at the top level of a module: export const ${HOLDER[factory]} = ${factory}(...)...`,
      )
      continue
    }
    if (factory === PROMPT_FACTORY || factory === RESOURCE_FACTORY) {
      const served = readServed(source, call, factory, holder, at, report)
      if (served) (factory === PROMPT_FACTORY ? result.prompts : result.resources).push(served)
    } else if (factory === TOOL_FACTORY) {
      const tool = readTool(source, call, chain.steps, holder, at, report)
      if (tool) result.tools.push(tool)
    } else {
      result.plugins.push(readPlugin(source, call, chain.steps, holder, at, report, reader))
    }
  }
  return result
}

/** Discover the given files (each on its own; see `crossCheck` for what spans files). */
/** `shared`: the build's parse cache (the split reads the same parses). */
export function discoverProject(root: string, files: readonly string[], shared?: ParseCache): FileDiscovery[] {
  const reader = new SourceReader(shared)
  const index = new Map(files.map((file, i) => [file, i]))
  const results: Array<FileDiscovery | undefined> = Array.from({ length: files.length })
  const discoverAt = (i: number) => (results[i] = discoverOne(root, files[i]!, reader))
  for (let i = 0; i < files.length; i++) {
    if (results[i]) continue
    // The files a discovery read besides its own (a plugin's tool file) are discovered next,
    // while their parse is at hand; then every parse is let go, so memory holds a few ASTs at a
    // time, not the whole project's.
    const { files: read } = reader.reading(() => discoverAt(i))
    for (const file of read) {
      const j = index.get(file)
      if (j !== undefined && !results[j]) discoverAt(j)
    }
    reader.release()
  }
  return results as FileDiscovery[]
}

function discoverOne(root: string, file: string, reader: SourceReader): FileDiscovery {
  const relativePath = relative(root, file)
  // The quick pre-scan (patterns.ts): a file that never names the runtime holds no tool, no
  // plugin and no re-export of them, and is not parsed at all.
  const code = readIfPresent(file)
  if (code === undefined || !mayContainTools(code)) return emptyDiscovery(relativePath)
  let source: ParsedSource | undefined
  try {
    source = reader.add(file, code)
  } catch (error) {
    return emptyDiscovery(relativePath, [parseFailure(relativePath, code, error)])
  }
  if (!source) return emptyDiscovery(relativePath)
  const result = discoverFile(source, relativePath, reader)
  for (const plugin of result.plugins) if (plugin.tool) plugin.tool = { ...plugin.tool, file: relative(root, plugin.tool.file) }
  return result
}

/** A file deleted since the list of sources was made (dev) has nothing to discover. */
function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** A file oxc cannot parse: said at the place it names (the build would fail there too). */
function parseFailure(file: string, code: string, error: unknown): Diagnostic {
  if (!(error instanceof SourceParseError)) throw error
  const offset = Math.min(error.pos, code.length)
  const before = code.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - before.lastIndexOf('\n')
  return { file, line, column, severity: 'error', code: 'MODULE_LOAD_FAILED', message: error.message }
}

/**
 * The checks that span files — duplicate tool names, plugins whose tool cannot be resolved —
 * recomputed on every run over fresh copies, so cached per-file results are never mutated.
 */
export function crossCheck(discoveries: readonly FileDiscovery[]): FileDiscovery[] {
  const results = discoveries.map((d) => ({ ...d, diagnostics: [...d.diagnostics] }))
  for (const r of results) {
    for (const plugin of r.plugins) {
      if (plugin.tool) continue
      r.diagnostics.push({
        ...plugin.location,
        severity: 'warning',
        code: 'PLUGIN_UNKNOWN_TOOL',
        message: `The argument of createPlugin(...) in ${plugin.exportName} does not resolve to an exported tool; export the tool and pass its identifier: createPlugin(bookFlight).`,
      })
    }
  }
  // One plugin per tool: the client registry (and the page) takes one; a second would fail at run time.
  const pluginOf = new Map<string, DiscoveredPlugin>()
  for (const r of results) {
    for (const plugin of r.plugins) {
      if (!plugin.tool) continue
      const tool = `${plugin.tool.file}#${plugin.tool.exportName}`
      const first = pluginOf.get(tool)
      if (!first) pluginOf.set(tool, plugin)
      else {
        r.diagnostics.push({
          ...plugin.location,
          severity: 'error',
          code: 'DUPLICATE_PLUGIN',
          message: `${plugin.exportName} is a second plugin for the tool ${plugin.tool.exportName} (${plugin.tool.file}); ${first.exportName} at ${first.location.file}:${first.location.line}:${first.location.column} is one already. A tool has one plugin: merge their handlers, or delete one.`,
        })
      }
    }
  }
  duplicates(results, 'prompts', 'DUPLICATE_PROMPT_NAME', (name, first) => `Prompt name "${name}" is already used by ${first}; prompt names must be unique.`)
  duplicates(results, 'resources', 'DUPLICATE_RESOURCE_URI', (uri, first) => `Resource "${uri}" is already served by ${first}; each URI (or template) once.`)
  const byName = new Map<string, DiscoveredTool>()
  for (const r of results) {
    for (const tool of r.tools) {
      const first = byName.get(tool.name)
      if (!first) {
        byName.set(tool.name, tool)
        continue
      }
      r.diagnostics.push({
        ...tool.location,
        severity: 'error',
        code: 'DUPLICATE_TOOL_NAME',
        message: `Tool name "${tool.name}" is already used by ${first.exportName} at ${first.location.file}:${first.location.line}:${first.location.column}; tool names must be unique.`,
      })
    }
  }
  return results
}

/** What each factory makes, for messages. */
const WHAT: Record<string, string> = { [TOOL_FACTORY]: 'tools', [PLUGIN_FACTORY]: 'plugins', [PROMPT_FACTORY]: 'prompts', [RESOURCE_FACTORY]: 'resources' }
const HOLDER: Record<string, string> = { [TOOL_FACTORY]: 'myTool', [PLUGIN_FACTORY]: 'myPlugin', [PROMPT_FACTORY]: 'myPrompt', [RESOURCE_FACTORY]: 'myResource' }

/** A second prompt of one name (or resource of one URI) is an error at the second. */
function duplicates(results: FileDiscovery[], kind: 'prompts' | 'resources', code: Diagnostic['code'], message: (name: string, first: string) => string): void {
  const seen = new Map<string, DiscoveredServed>()
  for (const r of results) {
    for (const item of r[kind]) {
      const first = seen.get(item.name)
      if (!first) seen.set(item.name, item)
      else
        r.diagnostics.push({
          ...item.location,
          severity: 'error',
          code,
          message: message(item.name, `${first.exportName} at ${first.location.file}:${first.location.line}:${first.location.column}`),
        })
    }
  }
}

/** A prompt or resource: its literal name or URI (what the registry and manifest list), exported. */
function readServed(
  source: ParsedSource,
  call: EsNode,
  factory: typeof PROMPT_FACTORY | typeof RESOURCE_FACTORY,
  holder: Exclude<Holder, { kind: 'nested' }>,
  at: (n: EsNode) => SourceLocation,
  report: Report,
): DiscoveredServed | undefined {
  const what =
    factory === PROMPT_FACTORY
      ? { noun: 'prompt name', example: "createMcpPrompt('review_code')" }
      : { noun: 'resource URI', example: "createMcpResource('orders://{id}/summary')" }
  const name = literalArgument(source, call, what.noun, what.example, report)
  if (name === undefined) return undefined
  const exportName = holder.kind === 'default' ? 'default' : holder.name
  const exported = holder.kind === 'default' || holder.exported
  if (!exported) {
    report(
      call,
      'NOT_EXPORTED',
      `${factory === PROMPT_FACTORY ? 'Prompt' : 'Resource'} "${name}" (${exportName}) is not exported, so the generated registry cannot import it. Write export const ${exportName} = ...`,
    )
  }
  return { name, exportName, exported, location: at(call) }
}

function reportReExports(program: EsNode, report: Report): void {
  for (const decl of program.body as EsNode[]) {
    if (decl.type !== 'ExportNamedDeclaration' || (decl.source as EsNode | null)?.value !== RUNTIME_MODULE) continue
    for (const spec of decl.specifiers as EsNode[]) {
      const name = keyName(spec.local)
      if (name !== undefined && name in WHAT) {
        report(
          spec,
          'RE_EXPORT',
          `Re-exporting ${name} hides the ${WHAT[name]} made with it from discovery; ` + `import it from "${RUNTIME_MODULE}" directly where tools are defined.`,
        )
      }
    }
  }
}

type Holder = { kind: 'variable'; name: string; exported: boolean } | { kind: 'default' } | { kind: 'nested' }

/** Wrappers a chain may sit in and still be the value of its declaration. */
const WRAPPERS = new Set(['ParenthesizedExpression', 'TSAsExpression', 'TSSatisfiesExpression'])

function exportHolder(source: ParsedSource, top: EsNode): Holder {
  let node = top
  // Allow `satisfies` / `as` wrappers and parentheses around the chain.
  while (WRAPPERS.has(source.parents.get(node)?.type ?? '')) node = source.parents.get(node)!
  const parent = source.parents.get(node)
  if (parent?.type === 'ExportDefaultDeclaration') return { kind: 'default' }
  if (parent?.type !== 'VariableDeclarator' || parent.init !== node || (parent.id as EsNode).type !== 'Identifier') return { kind: 'nested' }
  const statement = source.parents.get(parent)
  const container = statement && source.parents.get(statement)
  const topLevel = container?.type === 'Program' || (container?.type === 'ExportNamedDeclaration' && source.parents.get(container)?.type === 'Program')
  if (!topLevel) return { kind: 'nested' }
  const local = (parent.id as EsNode).name as string
  const exportName = exportNameOf(source, parent)
  return { kind: 'variable', name: exportName ?? local, exported: exportName !== undefined }
}

function readTool(
  source: ParsedSource,
  call: EsNode,
  steps: Step[],
  holder: Exclude<Holder, { kind: 'nested' }>,
  at: (n: EsNode) => SourceLocation,
  report: Report,
): DiscoveredTool | undefined {
  const name = literalArgument(source, call, 'tool name', "createMcpTool('book_flight')", report)
  if (name === undefined) return undefined
  const arg = (call.arguments as EsNode[])[0]
  const problem = toolNameProblem(name)
  if (problem) report(arg!, 'INVALID_TOOL_NAME', `Invalid tool name "${name}": ${problem}. Use 1–128 characters of A–Z, a–z, 0–9, "_", "-" and ".".`)
  const exportName = holder.kind === 'default' ? 'default' : holder.name
  if (holder.kind === 'variable' && !holder.exported) {
    report(call, 'NOT_EXPORTED', `Tool "${name}" (${holder.name}) is not exported, so the generated registries cannot import it. Write export const ${holder.name} = ...`)
  }
  const elicitsStep = steps.find((s) => s.name === 'elicits')
  const last = steps.at(-1)
  if (!elicitsStep && last?.name === 'handoff') {
    report(last.call, 'MISSING_ELICITS', `Tool "${name}" calls .handoff() without .elicits({...}) first: its client phase asks the user, so declare the keys it asks.`)
  }
  return {
    name,
    exportName,
    exported: holder.kind === 'default' || holder.exported,
    location: at(call),
    elicitsLocation: elicitsStep ? at(elicitsStep.call) : undefined,
    elicits: elicitsStep ? readElicits(elicitsStep.call, at) : undefined,
  }
}

/** A string literal's text, or a template literal's without substitutions. */
/** The factory's first argument as written, if it is a string literal; reported (and undefined) if not. */
function literalArgument(source: ParsedSource, call: EsNode, noun: string, example: string, report: Report): string | undefined {
  const arg = (call.arguments as EsNode[])[0]
  const name = arg && literalText(arg)
  if (name === undefined) {
    report(
      arg ?? call,
      'NON_LITERAL_NAME',
      `The ${noun} must be a string literal (got ${arg ? source.code.slice(arg.start, arg.end) : 'nothing'}), so it can be known without running code: ${example}.`,
    )
  }
  return name
}

function literalText(node: EsNode): string | undefined {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value
  if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) {
    return ((node.quasis as EsNode[])[0]?.value as { cooked?: string } | undefined)?.cooked ?? undefined
  }
  return undefined
}

/** Plain `key: value` and shorthand `key` properties (not methods, accessors, spreads). */
function plainProperties(object: EsNode): EsNode[] {
  return (object.properties as EsNode[]).filter((p) => p.type === 'Property' && p.kind === 'init' && !p.method && keyName(p.key) !== undefined)
}

function readElicits(call: EsNode, at: (n: EsNode) => SourceLocation): DiscoveredElicitKey[] | undefined {
  const map = (call.arguments as EsNode[])[0]
  if (!map || map.type !== 'ObjectExpression') return undefined
  // With a spread the keys are only known at run time: report at the .elicits() call instead.
  if ((map.properties as EsNode[]).some((p) => p.type === 'SpreadElement')) return undefined
  return plainProperties(map).map((prop) => {
    const value = prop.shorthand ? undefined : (prop.value as EsNode)
    let response: EsNode | undefined = value
    let hasContext = false
    if (value?.type === 'ObjectExpression') {
      const members = value.properties as EsNode[]
      const r = members.find((p) => p.type === 'Property' && !p.method && !p.shorthand && keyName(p.key) === 'response')
      response = r?.value as EsNode | undefined
      hasContext = members.some((p) => p.type === 'Property' && keyName(p.key) === 'context')
    }
    return { key: keyName(prop.key)!, location: at(prop), properties: inlineObjectProperties(response, at), hasContext }
  })
}

/** `z.object({ a: ..., b: ... })` (or `z.strictObject`) written inline: each property's position. */
function inlineObjectProperties(node: EsNode | undefined, at: (n: EsNode) => SourceLocation): DiscoveredProperty[] | undefined {
  if (node?.type !== 'CallExpression') return undefined
  const callee = node.callee as EsNode
  if (callee.type !== 'MemberExpression' || callee.computed || !['object', 'strictObject', 'looseObject'].includes(keyName(callee.property) ?? '')) return undefined
  const shape = (node.arguments as EsNode[])[0]
  if (shape?.type !== 'ObjectExpression') return undefined
  return plainProperties(shape).map((p) => ({ name: keyName(p.key)!, location: at(p) }))
}

function readPlugin(
  source: ParsedSource,
  call: EsNode,
  steps: Step[],
  holder: Exclude<Holder, { kind: 'nested' }>,
  at: (n: EsNode) => SourceLocation,
  report: Report,
  reader: SourceReader,
): DiscoveredPlugin {
  const exportName = holder.kind === 'default' ? 'default' : holder.name
  if (holder.kind === 'variable' && !holder.exported) {
    report(call, 'NOT_EXPORTED', `Plugin ${holder.name} is not exported, so the generated client registry cannot import it. Write export const ${holder.name} = ...`)
  }
  const onElicitCall = steps.find((s) => s.name === 'onElicit')?.call
  const handlerKeys = objectKeys((onElicitCall?.arguments as EsNode[] | undefined)?.[0])
  // `onElicit` in `createPlugin(tool).onElicit({...})`: where a key problem is reported.
  const onElicitName = onElicitCall && ((onElicitCall.callee as EsNode).property as EsNode)
  const resolved = reader.reading(() => resolveTool(source, (call.arguments as EsNode[])[0], reader))
  return {
    exportName,
    location: at(call),
    tool: resolved.value,
    handlerKeys,
    onElicitLocation: onElicitName && at(onElicitName),
    dependsOn: resolved.files.filter((file) => file !== source.path),
  }
}

/** Follow `createPlugin(bookFlight)` to the exported declaration of `bookFlight`, through imports. */
function resolveTool(source: ParsedSource, arg: EsNode | undefined, reader: SourceReader): DiscoveredPlugin['tool'] {
  if (arg?.type !== 'Identifier') return undefined
  const def = resolveVariable(source, arg.name as string, reader)
  const exportName = def && exportNameOf(def.source, def.declarator)
  return def && exportName ? { file: def.source.path, exportName } : undefined
}

export function relative(root: string, file: string): string {
  const r = file.startsWith(root) ? file.slice(root.length).replace(/^[\\/]+/, '') : file
  return r.replace(/\\/g, '/')
}
