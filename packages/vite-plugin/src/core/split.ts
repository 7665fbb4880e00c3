/**
 * The client/server split. A tool module is imported by both bundles (the plugin imports the
 * tool, the server imports the plugin), so each bundle would carry the other's code. We cut it:
 *
 *   - client: the argument of `.execute(...)` / `.handoff(...)` in a `createMcpTool` chain
 *     becomes a stub that throws if ever called, so server code (and what it imports) is gone;
 *   - server: the handlers of `.onElicit({...})` in a `createPlugin` chain become stubs with the
 *     same keys, so React components drop out of the server bundle.
 *
 * Imports are removed only when an edit made them unused. Code the splitter cannot see through
 * (a wrapper, a re-export) is reported by discovery as an error, never silently shipped; the
 * split and discovery recognise chains from the same table (`patterns.ts`), and a test runs
 * both over every fixture to check they agree.
 */
import MagicString from 'magic-string'
import { chainOf, factoryOf, hasBindings, importDeclarations, runtimeBindings } from './chains.ts'
import { isNode, keyName, walk, type EsNode } from './estree.ts'
import { parseSource, type ParsedSource } from './parsed-source.ts'
import { CLIENT_STEPS, mayHaveSteps, PLUGIN_FACTORY, RUNTIME_MODULE, SERVER_STEPS, TOOL_FACTORY } from './patterns.ts'

/**
 * Which bundle a module is split for: `client` (tool bodies removed) or `server` (kept).
 */
export type SplitTarget = 'client' | 'server'

/**
 * A module after the split: its code for the target, the source map, and what was removed.
 */
export interface SplitResult {
  code: string
  map: ReturnType<MagicString['generateMap']>
  /** What was cut, for reports and tests. */
  removed: { steps: string[]; imports: string[]; sources: string[] }
}

interface Cut {
  node: EsNode
  replacement: string
  step: string
}

/**
 * `parsed`: the file as discovery parsed it in this build (`ParseCache`), so it is not parsed
 * again — or how to get it, asked only when the file's text can hold a step to cut.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs'
 * import { splitModule } from '@mcp-bridge/vite-plugin/core'
 *
 * const file = 'src/tools/book-flight/tool.ts'
 * const client = splitModule(readFileSync(file, 'utf8'), file, 'client')
 * // undefined: nothing to cut; else client.code has the tool's body removed, client.map maps it back
 * ```
 */
export function splitModule(code: string, id: string, target: SplitTarget, parsed?: ParsedSource | (() => ParsedSource)): SplitResult | undefined {
  if (!code.includes(RUNTIME_MODULE)) return undefined
  const steps = new Set<string>(target === 'client' ? SERVER_STEPS : CLIENT_STEPS)
  if (!mayHaveSteps(code, [...steps])) return undefined
  const given = typeof parsed === 'function' ? parsed() : parsed
  const source = given?.code === code ? given : parseSource(id, code)
  const { program, parents } = source
  const factories = runtimeBindings(program)
  if (!hasBindings(factories)) return undefined

  const wanted = target === 'client' ? TOOL_FACTORY : PLUGIN_FACTORY
  const calls: EsNode[] = []
  for (const node of parents.keys()) if (node.type === 'CallExpression' && factoryOf(node, factories) === wanted) calls.push(node)

  const cuts: Cut[] = []
  for (const call of calls) {
    for (const step of chainOf(call, parents).steps) {
      const arg = (step.call.arguments as unknown[])[0]
      if (!steps.has(step.name) || !isNode(arg)) continue
      cuts.push({ node: arg, replacement: stubFor(step.name, arg, target), step: step.name })
    }
  }
  if (cuts.length === 0) return undefined

  const s = new MagicString(code)
  for (const cut of cuts) s.overwrite(cut.node.start, cut.node.end, cut.replacement)
  // The stubs throw the runtime's error class (hoisted like every import, so prepending is safe).
  s.prepend(`import { RemovedFromBundleError as ${STUB_ERROR} } from '${RUNTIME_MODULE}';\n`)
  const { names, sources, ranges } = removeUnusedImports(program, code, cuts, s)
  const map = s.generateMap({ source: id, includeContent: true, hires: 'boundary' })
  // The map's copy of the source is what a published `.js.map` shows: it must not carry what
  // the cut removed. The redacted copy keeps every offset, so the mappings stay exact.
  map.sourcesContent = [redact(code, [...cuts.map((c) => [c.node.start, c.node.end] as const), ...ranges], target)]
  return {
    code: s.toString(),
    map,
    removed: { steps: cuts.map((c) => c.step), imports: names, sources },
  }
}

/** `code` as the split's source map shows it (with what `target` does not get blanked); `code` itself when nothing is cut. */
export function redactedSource(code: string, id: string, target: SplitTarget): string {
  return splitModule(code, id, target)?.map.sourcesContent?.[0] ?? code
}

/**
 * `code` with each removed range blanked: spaces in place of its characters, its line breaks
 * kept (so every line:column after it is unchanged), and a short note where it fits.
 */
export function redact(code: string, ranges: readonly (readonly [number, number])[], target: SplitTarget): string {
  const note = `/* removed from the ${target} bundle by mcp-bridge */`
  let out = ''
  let at = 0
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (end <= at) continue
    const from = Math.max(start, at)
    out += code.slice(at, from)
    // The note goes on the first line of the range that has room for it.
    const lines = code.slice(from, end).replace(/[^\r\n]/g, ' ').split(/(\r?\n)/)
    const roomy = lines.findIndex((line, i) => i % 2 === 0 && line.length >= note.length)
    if (roomy !== -1) lines[roomy] = note + lines[roomy]!.slice(note.length)
    out += lines.join('')
    at = end
  }
  return out + code.slice(at)
}

/** The local name the stubs' error class is imported under (unlikely to clash with app code). */
const STUB_ERROR = '__mcpBridgeRemovedFromBundle'

function stubFor(step: string, arg: EsNode, target: SplitTarget): string {
  const where = target === 'client' ? 'in the browser' : 'on the server'
  const fail = `() => { throw new ${STUB_ERROR}(${JSON.stringify(step)}, ${JSON.stringify(where)}) }`
  if (step === 'execute') return fail
  if (step === 'handoff') return `{ before: ${fail}, client: ${fail}, after: ${fail} }`
  // onElicit: keep the keys, since createPlugin checks them against the tool.
  const keys = arg.type === 'ObjectExpression' ? (arg.properties as EsNode[]).flatMap((p) => (p.type === 'Property' && !p.computed ? [keyName(p.key)] : [])) : []
  return `{ ${keys.filter((k) => k !== undefined).map((k) => `${/^[A-Za-z_$][\w$]*$/.test(k!) ? k : JSON.stringify(k)}: ${fail}`).join(', ')} }`
}

/**
 * Remove import bindings whose every use was inside a cut (and only those). A "use" is any
 * identifier with the binding's name outside import declarations — property names and types
 * included, so the rule errs on keeping an import, never on dropping a used one.
 */
function removeUnusedImports(program: EsNode, code: string, cuts: readonly Cut[], s: MagicString): { names: string[]; sources: string[]; ranges: [number, number][] } {
  const inCut = (node: EsNode) => cuts.some((c) => node.start >= c.node.start && node.end <= c.node.end)
  const uses = new Map<string, EsNode[]>()
  for (const statement of program.body as EsNode[]) {
    if (statement.type === 'ImportDeclaration') continue
    walk(statement, (node) => {
      if (node.type !== 'Identifier' && node.type !== 'JSXIdentifier') return
      const name = node.name as string
      uses.set(name, [...(uses.get(name) ?? []), node])
    })
  }
  const names: string[] = []
  const sources: string[] = []
  const ranges: [number, number][] = []
  const remove = (start: number, end: number) => {
    s.remove(start, end)
    ranges.push([start, end])
  }
  for (const decl of importDeclarations(program)) {
    const specifiers = decl.specifiers as EsNode[]
    if (specifiers.length === 0) continue // side-effect import: never touched
    const dead = specifiers.filter((spec) => {
      const found = uses.get((spec.local as EsNode).name as string) ?? []
      return found.length > 0 && found.every(inCut)
    })
    if (dead.length === 0) continue
    names.push(...dead.map((spec) => (spec.local as EsNode).name as string))
    if (dead.length === specifiers.length) {
      remove(decl.start, decl.end)
      sources.push((decl.source as EsNode).value as string)
      continue
    }
    // Remove each specifier with one comma next to it: `A, ` (default), `, * as ns`, `b, ` or `, b`.
    for (const spec of dead) {
      const after = commaAfter(code, spec.end)
      if (spec.type !== 'ImportNamespaceSpecifier' && after !== undefined) remove(spec.start, after)
      else remove(commaBefore(code, spec.start) ?? spec.start, spec.end)
    }
  }
  return { names, sources, ranges }
}

/** The offset just past a comma that follows `from` (whitespace between), if one does. */
function commaAfter(code: string, from: number): number | undefined {
  let i = from
  while (/\s/.test(code[i] ?? '')) i++
  if (code[i] !== ',') return undefined
  i++
  while (/\s/.test(code[i] ?? '')) i++
  return i
}

/** The offset of a comma that precedes `from` (whitespace between), if one does. */
function commaBefore(code: string, from: number): number | undefined {
  let i = from - 1
  while (i >= 0 && /\s/.test(code[i]!)) i--
  return code[i] === ',' ? i : undefined
}
