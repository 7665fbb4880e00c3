/**
 * The client/server split. A tool module is imported by both bundles (the plugin imports the
 * tool, the server imports the plugin), so each bundle would carry the other's code. We cut it:
 *
 *   - client: the argument of `.execute(...)` / `.handoff(...)` in a `createMcpTool` chain
 *     becomes a stub that throws if ever called, so server code (and what it imports) is gone;
 *   - server: the handlers of `.onElicit({...})` in a `createPlugin` chain become stubs with the
 *     same keys, so React components drop out of the server bundle.
 *
 * Then every module-level declaration and import binding that only the cut code used is removed,
 * transitively (a helper beside `execute`, the constant secret it reads, the `AsyncLocalStorage`
 * it was built from). Only what the cut made unused goes: code that was unused before stays as
 * the author wrote it. In the client, what is still kept and must never reach a browser (see
 * `server-only.ts`) is reported as a leak with the chain of uses that keeps it.
 *
 * Code the splitter cannot see through (a wrapper, a re-export) is reported by discovery as an
 * error, never silently shipped; the split and discovery recognise chains from the same table
 * (`patterns.ts`), and a test runs both over every fixture to check they agree.
 */
import MagicString from 'magic-string'
import { chainOf, factoryOf, hasBindings, runtimeBindings } from './chains.ts'
import { isNode, keyName, type EsNode } from './estree.ts'
import { moduleGraph, type ModuleGraph, type Piece } from './module-graph.ts'
import { parseSource, type ParsedSource } from './parsed-source.ts'
import { CLIENT_STEPS, mayHaveSteps, PLUGIN_FACTORY, RUNTIME_MODULE, SERVER_STEPS, TOOL_FACTORY } from './patterns.ts'
import { serverOnlySpecifier } from './server-only.ts'

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
  /**
   * What was cut, for reports and tests: the steps, the import bindings and the other
   * declarations that only they used, and the import sources that went entirely.
   */
  removed: { steps: string[]; imports: string[]; declarations: string[]; sources: string[] }
  /** Client: server-only code the split had to keep, and why (empty on the server). */
  leaks: Leak[]
}

/** Server-only code a client split keeps, with the uses that keep it. */
export interface Leak {
  /** `node:async_hooks`, `./db.server.ts`, `process.env.API_KEY`. */
  what: string
  /** `a Node built-in module`, `a .server module`, `an environment variable`. */
  why: string
  /** The import specifier and the local names it binds, when the leak is an import. */
  specifier?: string
  names?: string[]
  /** Where the import or read is. */
  at: { offset: number; line: number; column: number }
  /**
   * Kept only because the file exports it: another module may import it, or the bundler may
   * drop it — the build decides from what ships (see client-leaks.ts), not the transform.
   */
  exportOnly: boolean
  /** Why it stays, one line per use, from the leak up to what the client keeps anyway. */
  chain: string[]
}

/** A leak as the build prints it: where, what, and the uses that keep it. */
export function leakMessage(file: string, leak: Leak): string {
  return [`${file}:${leak.at.line}:${leak.at.column}  ${leak.what} (${leak.why}) is kept in the client bundle by:`, ...leak.chain.map((line) => `  ${line}`)].join('\n')
}

/** How to fix a leak, said once under the list. */
export const LEAK_HINT =
  'The client bundle loses only .execute()/.handoff() bodies and what nothing else uses. Move the server code into the tool body, ' +
  'or into a module only the body imports (name it *.server.ts to have the build check it), and pass what the UI needs in the ' +
  "question's context. Docs: the Vite plugin guide, 'The split'."

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
  const factoryCalls: EsNode[] = []
  for (const node of parents.keys()) if (node.type === 'CallExpression' && factoryOf(node, factories)) factoryCalls.push(node)

  const cuts: Cut[] = []
  for (const call of factoryCalls) {
    if (factoryOf(call, factories) !== wanted) continue
    for (const step of chainOf(call, parents).steps) {
      const arg = (step.call.arguments as unknown[])[0]
      if (!steps.has(step.name) || !isNode(arg)) continue
      cuts.push({ node: arg, replacement: stubFor(step.name, arg, target), step: step.name })
    }
  }
  if (cuts.length === 0) return undefined

  const inCut = (offset: number) => cuts.some((c) => offset >= c.node.start && offset < c.node.end)
  const graph = moduleGraph(program)
  const before = graph.reach(() => false)
  const after = graph.reach(inCut)
  // What the cut made unused goes; a piece holding a cut stays (its stub is in it).
  const dead = graph.pieces.filter((p) => before.has(p) && !after.has(p) && !cuts.some((c) => c.node.start >= p.node.start && c.node.end <= p.node.end))
  // A side-effect import of server-only code (`import 'dotenv/config'` aside: only what the table
  // names) is the server's: the client does not run it.
  if (target === 'client') {
    for (const p of graph.pieces) {
      if (p.node.type === 'ImportDeclaration' && serverOnlySpecifier((p.node.source as EsNode).value as string)) dead.push(p)
    }
  }

  const s = new MagicString(code)
  for (const cut of cuts) s.overwrite(cut.node.start, cut.node.end, cut.replacement)
  // The stubs throw the runtime's error class (hoisted like every import, so prepending is safe).
  s.prepend(`import { RemovedFromBundleError as ${STUB_ERROR} } from '${RUNTIME_MODULE}/errors';\n`)
  const removed = removePieces(code, dead, graph, s)
  const map = s.generateMap({ source: id, includeContent: true, hires: 'boundary' })
  // The map's copy of the source is what a published `.js.map` shows: it must not carry what
  // the cut removed. The redacted copy keeps every offset, so the mappings stay exact.
  map.sourcesContent = [redact(code, [...cuts.map((c) => [c.node.start, c.node.end] as const), ...removed.ranges], target)]
  return {
    code: s.toString(),
    map,
    removed: { steps: cuts.map((c) => c.step), imports: removed.imports, declarations: removed.declarations, sources: removed.sources },
    leaks: target === 'client' ? leaksOf(source, graph, after, factoryCalls, inCut) : [],
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
    const lines = code
      .slice(from, end)
      .replace(/[^\r\n]/g, ' ')
      .split(/(\r?\n)/)
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
  return `{ ${keys
    .filter((k) => k !== undefined)
    .map((k) => `${/^[A-Za-z_$][\w$]*$/.test(k!) ? k : JSON.stringify(k)}: ${fail}`)
    .join(', ')} }`
}

/**
 * Remove the dead pieces: an import specifier or a declarator with one comma next to it, or the
 * whole statement when none of its pieces stays (type-only specifiers are TypeScript's to erase).
 */
function removePieces(code: string, dead: readonly Piece[], graph: ModuleGraph, s: MagicString) {
  const imports: string[] = []
  const declarations: string[] = []
  const sources: string[] = []
  const ranges: [number, number][] = []
  const remove = (start: number, end: number) => {
    s.remove(start, end)
    ranges.push([start, end])
  }
  const gone = new Set(dead)
  const byStatement = new Map<EsNode, Piece[]>()
  for (const p of gone) byStatement.set(p.statement, [...(byStatement.get(p.statement) ?? []), p])
  for (const [statement, pieces] of byStatement) {
    const isImport = statement.type === 'ImportDeclaration'
    ;(isImport ? imports : declarations).push(...pieces.flatMap((p) => p.names))
    // Every piece of the statement gone (for an import, type-only specifiers included, which are
    // not pieces but keep their import written out).
    const siblings = graph.pieces.filter((p) => p.statement === statement)
    const whole = siblings.every((p) => gone.has(p)) && (!isImport || siblings.length === (statement.specifiers as EsNode[]).length || pieces[0]!.node === statement)
    if (whole) {
      remove(statement.start, statement.end)
      if (isImport) sources.push((statement.source as EsNode).value as string)
      continue
    }
    for (const p of pieces) {
      const after = commaAfter(code, p.node.end)
      if (p.node.type !== 'ImportNamespaceSpecifier' && after !== undefined) remove(p.node.start, after)
      else remove(commaBefore(code, p.node.start) ?? p.node.start, p.node.end)
    }
  }
  return { imports, declarations, sources, ranges }
}

/**
 * Client: server-only imports and `process.env` reads in what the split keeps, each with the
 * chain of uses that keeps it.
 */
function leaksOf(source: ParsedSource, graph: ModuleGraph, kept: ReturnType<ModuleGraph['reach']>, factoryCalls: readonly EsNode[], inCut: (offset: number) => boolean): Leak[] {
  // What the client surely runs: top-level statements, and exports that build a tool or plugin
  // (the registry imports them). Other exports may be dropped by the bundler if nothing uses them.
  const sure = graph.reach(inCut, (root) => root.root === 'statement' || factoryCalls.some((c) => c.start >= root.node.start && c.end <= root.node.end))
  const leaks: Leak[] = []
  const add = (piece: Piece, at: number, what: string, why: string, specifier?: string) => {
    const exportOnly = !sure.has(piece)
    const chain = chainTo(piece, exportOnly ? kept : sure, source)
    leaks.push({ what, why, ...(specifier !== undefined && { specifier, names: piece.names }), at: { offset: at, ...source.position(at) }, exportOnly, chain })
  }
  for (const piece of kept.keys()) {
    if (piece.statement.type !== 'ImportDeclaration' || piece.node === piece.statement) continue
    const specifier = (piece.statement.source as EsNode).value as string
    const why = serverOnlySpecifier(specifier)
    if (why) add(piece, piece.statement.start, specifier, why, specifier)
  }
  for (const id of graph.globalReads('process')) {
    const piece = graph.pieceAt(id.start)
    if (!piece || !kept.has(piece) || inCut(id.start)) continue
    const env = envRead(source, id)
    if (env) add(piece, id.start, env, 'an environment variable')
  }
  return leaks.sort((a, b) => a.at.offset - b.at.offset)
}

/** `process.env.NAME` / `process.env[…]` / `process.env` read by the identifier `process`; undefined for `NODE_ENV`. */
function envRead(source: ParsedSource, id: EsNode): string | undefined {
  const member = source.parents.get(id)
  if (!member || member.type !== 'MemberExpression' || member.object !== id || keyName(member.property) !== 'env') return undefined
  const outer = source.parents.get(member)
  const name = outer?.type === 'MemberExpression' && outer.object === member && !outer.computed ? keyName(outer.property) : undefined
  if (name === 'NODE_ENV') return undefined
  return name ? `process.env.${name}` : 'process.env'
}

/** The uses that keep `piece`, from it up to a root, one line each. */
function chainTo(piece: Piece, kept: ReturnType<ModuleGraph['reach']>, source: ParsedSource): string[] {
  const at = (offset: number) => {
    const { line, column } = source.position(offset)
    return `${line}:${column}`
  }
  const chain = [`${describe(piece)} (${at(piece.node.start)})`]
  let current = piece
  for (let step = kept.get(current); step; step = kept.get(current)) {
    chain.push(`used at ${at(step.at)} by ${describe(step.from)}${step.from.root ? '' : ` (${at(step.from.node.start)})`}`)
    current = step.from
  }
  return chain
}

function describe(piece: Piece): string {
  const names = piece.names.map((n) => `\`${n}\``).join(', ')
  if (piece.root === 'export') return names ? `the export ${names}` : 'an export statement'
  if (piece.root === 'statement') return 'a top-level statement'
  if (piece.statement.type === 'ImportDeclaration') return `the import of ${names}`
  return names || 'a declaration'
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
