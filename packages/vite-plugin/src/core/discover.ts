/**
 * Static discovery: find every `createMcpTool(...)` and `makePlugin(...)` chain with ts-morph and
 * record where things are. Only calls bound to `@mcp-bridge/runtime` count — named imports
 * (renamed or not) and namespace imports — so a same-named function from elsewhere is ignored.
 * Schema *facts* do not come from here (the real zod objects are loaded later); this module
 * knows names, exports and exact source positions, so every later report can point at code.
 */
import type { CallExpression, Project, SourceFile, VariableDeclaration } from 'ts-morph'
import { Node, SyntaxKind } from './ts-morph.ts'
import { toolNameProblem } from '@mcp-bridge/runtime/internal'
import type { Diagnostic, SourceLocation } from './diagnostics.ts'
import { chainOf, factoryOf, hasBindings, objectKeys, runtimeBindings, type Step } from './chains.ts'
import { PLUGIN_FACTORY, RUNTIME_MODULE, TOOL_FACTORY } from './patterns.ts'
import { resolveVariable } from './resolve-export.ts'

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
}

export interface FileDiscovery {
  file: string
  tools: DiscoveredTool[]
  plugins: DiscoveredPlugin[]
  diagnostics: Diagnostic[]
}


export function discoverFile(sourceFile: SourceFile, relativePath: string): FileDiscovery {
  const result: FileDiscovery = { file: relativePath, tools: [], plugins: [], diagnostics: [] }
  const at = (node: Node): SourceLocation => locate(sourceFile, node, relativePath)
  const report = (node: Node, code: Diagnostic['code'], message: string, severity: Diagnostic['severity'] = 'error') =>
    result.diagnostics.push({ ...at(node), severity, code, message })

  reportReExports(sourceFile, report)
  const bindings = runtimeBindings(sourceFile)
  if (!hasBindings(bindings)) return result

  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const factory = factoryOf(call, bindings)
    if (!factory) continue
    const chain = chainOf(call)
    const holder = exportHolder(chain.top)
    if (holder.kind === 'nested') {
      report(call, 'WRAPPED_CALL', `${factory} is called inside a function or expression, which discovery cannot follow. ` +
        `Define ${factory === TOOL_FACTORY ? 'tools' : 'plugins'} at the top level of a module: export const myTool = ${factory}(...)...`)
      continue
    }
    if (factory === TOOL_FACTORY) {
      const tool = readTool(call, chain.steps, holder, at, report)
      if (tool) result.tools.push(tool)
    } else {
      result.plugins.push(readPlugin(call, chain.steps, holder, at, report))
    }
  }
  return result
}

/** Discover the given files (each on its own; see `crossCheck` for what spans files). */
export function discoverProject(project: Project, root: string, files: readonly string[]): FileDiscovery[] {
  return files.map((file) => {
    const result = discoverFile(project.getSourceFileOrThrow(file), relative(root, file))
    for (const plugin of result.plugins) if (plugin.tool) plugin.tool = { ...plugin.tool, file: relative(root, plugin.tool.file) }
    return result
  })
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
        message: `The argument of makePlugin(...) in ${plugin.exportName} does not resolve to an exported tool; export the tool and pass its identifier: makePlugin(bookFlight).`,
      })
    }
  }
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

function reportReExports(sourceFile: SourceFile, report: (node: Node, code: Diagnostic['code'], message: string) => void): void {
  for (const decl of sourceFile.getExportDeclarations()) {
    if (decl.getModuleSpecifierValue() !== RUNTIME_MODULE) continue
    for (const named of decl.getNamedExports()) {
      if (named.getName() === TOOL_FACTORY || named.getName() === PLUGIN_FACTORY) {
        report(named, 'RE_EXPORT', `Re-exporting ${named.getName()} hides the tools made with it from discovery; ` +
          `import it from "${RUNTIME_MODULE}" directly where tools are defined.`)
      }
    }
  }
}

type Holder = { kind: 'variable'; name: string; exported: boolean; node: Node } | { kind: 'default'; node: Node } | { kind: 'nested' }

function exportHolder(top: Node): Holder {
  let node = top
  // Allow `satisfies` / `as` wrappers and parentheses around the chain.
  while (Node.isParenthesizedExpression(node.getParent()) || Node.isAsExpression(node.getParent()) || Node.isSatisfiesExpression(node.getParent())) {
    node = node.getParentOrThrow()
  }
  const parent = node.getParent()
  if (parent && Node.isExportAssignment(parent)) return { kind: 'default', node: parent }
  if (parent && Node.isVariableDeclaration(parent) && parent.getInitializer() === node) {
    const statement = parent.getVariableStatement()
    if (!statement || statement.getParent() !== parent.getSourceFile()) return { kind: 'nested' }
    const exportName = exportNameOf(parent)
    return { kind: 'variable', name: exportName ?? parent.getName(), exported: exportName !== undefined, node: parent }
  }
  return { kind: 'nested' }
}

/** The name a top-level variable is exported under (`export const`, `export { x as y }`, `export default x`), if any. */
function exportNameOf(declaration: VariableDeclaration): string | undefined {
  const name = declaration.getName()
  return declaration.getVariableStatement()?.isExported() ? name : exportedAs(declaration.getSourceFile(), name)
}

function exportedAs(file: SourceFile, local: string): string | undefined {
  for (const decl of file.getExportDeclarations()) {
    if (decl.getModuleSpecifier()) continue
    for (const named of decl.getNamedExports()) {
      if (named.getName() === local) return named.getAliasNode()?.getText() ?? local
    }
  }
  const assignment = file.getExportAssignments().find((a) => !a.isExportEquals() && a.getExpression().getText() === local)
  return assignment ? 'default' : undefined
}

function readTool(
  call: CallExpression,
  steps: Step[],
  holder: Exclude<Holder, { kind: 'nested' }>,
  at: (n: Node) => SourceLocation,
  report: (node: Node, code: Diagnostic['code'], message: string) => void,
): DiscoveredTool | undefined {
  const arg = call.getArguments()[0]
  if (!arg || !(Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg))) {
    report(arg ?? call, 'NON_LITERAL_NAME', `The tool name must be a string literal (got ${arg ? arg.getText() : 'nothing'}), so it can be known without running code: createMcpTool('book_flight').`)
    return undefined
  }
  const name = arg.getLiteralText()
  const problem = toolNameProblem(name)
  if (problem) report(arg, 'INVALID_TOOL_NAME', `Invalid tool name "${name}": ${problem}. Use 1–128 characters of A–Z, a–z, 0–9, "_", "-" and ".".`)
  const exportName = holder.kind === 'default' ? 'default' : holder.name
  if (holder.kind === 'variable' && !holder.exported) {
    report(call, 'NOT_EXPORTED', `Tool "${name}" (${holder.name}) is not exported, so the generated registries cannot import it. Write export const ${holder.name} = ...`)
  }
  const elicitsStep = steps.find((s) => s.name === 'elicits')
  const last = steps.at(-1)
  if (!elicitsStep && last && (last.name === 'execute' || last.name === 'handoff')) {
    report(last.call, 'MISSING_ELICITS', `Tool "${name}" calls .${last.name}() without .elicits({...}) first; add .elicits({}) if it never asks the user.`)
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

function readElicits(call: CallExpression, at: (n: Node) => SourceLocation): DiscoveredElicitKey[] | undefined {
  const map = call.getArguments()[0]
  if (!map || !Node.isObjectLiteralExpression(map)) return undefined
  // With a spread the keys are only known at run time: report at the .elicits() call instead.
  if (map.getProperties().some((p) => Node.isSpreadAssignment(p))) return undefined
  const keys: DiscoveredElicitKey[] = []
  for (const prop of map.getProperties()) {
    if (!Node.isPropertyAssignment(prop) && !Node.isShorthandPropertyAssignment(prop)) continue
    const key = prop.getName().replace(/^['"]|['"]$/g, '')
    const value = Node.isPropertyAssignment(prop) ? prop.getInitializer() : undefined
    let response: Node | undefined = value
    let hasContext = false
    if (value && Node.isObjectLiteralExpression(value)) {
      const r = value.getProperty('response')
      response = r && Node.isPropertyAssignment(r) ? r.getInitializer() : undefined
      hasContext = value.getProperty('context') !== undefined
    }
    keys.push({ key, location: at(prop), properties: inlineObjectProperties(response, at), hasContext })
  }
  return keys
}

/** `z.object({ a: ..., b: ... })` (or `z.strictObject`) written inline: each property's position. */
function inlineObjectProperties(node: Node | undefined, at: (n: Node) => SourceLocation): DiscoveredProperty[] | undefined {
  if (!node || !Node.isCallExpression(node)) return undefined
  const callee = node.getExpression()
  if (!Node.isPropertyAccessExpression(callee) || !['object', 'strictObject', 'looseObject'].includes(callee.getName())) return undefined
  const shape = node.getArguments()[0]
  if (!shape || !Node.isObjectLiteralExpression(shape)) return undefined
  return shape
    .getProperties()
    .filter((p) => Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p))
    .map((p) => ({ name: (p as { getName(): string }).getName().replace(/^['"]|['"]$/g, ''), location: at(p) }))
}

function readPlugin(
  call: CallExpression,
  steps: Step[],
  holder: Exclude<Holder, { kind: 'nested' }>,
  at: (n: Node) => SourceLocation,
  report: (node: Node, code: Diagnostic['code'], message: string) => void,
): DiscoveredPlugin {
  const exportName = holder.kind === 'default' ? 'default' : holder.name
  if (holder.kind === 'variable' && !holder.exported) {
    report(call, 'NOT_EXPORTED', `Plugin ${holder.name} is not exported, so the generated client registry cannot import it. Write export const ${holder.name} = ...`)
  }
  const onElicitCall = steps.find((s) => s.name === 'onElicit')?.call
  const handlerKeys = objectKeys(onElicitCall?.getArguments()[0])
  return { exportName, location: at(call), tool: resolveTool(call.getArguments()[0]), handlerKeys, onElicitLocation: onElicitCall && at(onElicitName(onElicitCall)) }
}

/** `onElicit` in `makePlugin(tool).onElicit({...})`: where a key problem is reported. */
function onElicitName(call: CallExpression): Node {
  const callee = call.getExpression()
  return Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : call
}

/** Follow `makePlugin(bookFlight)` to the exported declaration of `bookFlight`, through imports. */
function resolveTool(arg: Node | undefined): DiscoveredPlugin['tool'] {
  if (!arg || !Node.isIdentifier(arg)) return undefined
  const def = resolveVariable(arg)
  const exportName = def && exportNameOf(def)
  return def && exportName ? { file: def.getSourceFile().getFilePath(), exportName } : undefined
}

function locate(file: SourceFile, node: Node, relativePath: string): SourceLocation {
  const { line, column } = file.getLineAndColumnAtPos(node.getStart())
  return { file: relativePath, line, column }
}

export function relative(root: string, file: string): string {
  const r = file.startsWith(root) ? file.slice(root.length).replace(/^[\\/]+/, '') : file
  return r.replace(/\\/g, '/')
}
