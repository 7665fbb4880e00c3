/**
 * `mcp-bridge check`'s type-aware pass: the TypeScript checker (through ts-morph) over the files
 * that define tools and plugins, reporting at `file:line:col` what the types already know and
 * the build cannot see — a handler whose answer does not match its key's response type, and
 * context props passed to `ctx.elicit` that the key's context schema does not declare. Only
 * `check` pays for loading the checker (about a second); dev and build never run this, and
 * `check --no-types` skips it. Other type errors in those files are the app's `tsc`'s to report.
 *
 * ts-morph is an optional peer: an app that does not install it gets every other check, and one
 * warning that says how to turn this pass on (or off without the warning).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type * as TsMorphModule from 'ts-morph'
import type { CallExpression, Node as TsNode, Project, SourceFile } from 'ts-morph'
import type { Diagnostic } from './diagnostics.ts'
import { relative, type FileDiscovery } from './discover.ts'

type TsMorph = typeof TsMorphModule

/** Where a Vite app's tsconfig may be, in the order it is looked for (the react-ts template's app config first). */
function tsconfigCandidates(root: string): string[] {
  return ['tsconfig.app.json', 'tsconfig.json'].map((name) => join(root, name))
}

/** The tsconfig a Vite app checks its sources with. */
function tsconfigOf(root: string): string | undefined {
  return tsconfigCandidates(root).find((path) => existsSync(path))
}

function createProject(m: TsMorph, root: string): Project {
  const { Project, ts } = m
  const tsConfigFilePath = tsconfigOf(root)
  return new Project({
    ...(tsConfigFilePath && { tsConfigFilePath }),
    skipAddingFilesFromTsConfig: true,
    // Without a tsconfig: what a Vite + TypeScript app uses.
    compilerOptions: tsConfigFilePath
      ? { noEmit: true }
      : {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          allowImportingTsExtensions: true,
          jsx: ts.JsxEmit.ReactJSX,
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        },
  })
}

export interface TypeCheck {
  diagnostics: Diagnostic[]
  /** The app's files the checker read (the tsconfig included), to know when its answer is stale. */
  inputs: string[]
}

/** Said when ts-morph cannot be loaded (not installed): where, what to do. */
export const TYPES_UNAVAILABLE: Diagnostic = {
  file: 'package.json',
  line: 1,
  column: 1,
  severity: 'warning',
  code: 'TYPES_UNAVAILABLE',
  message: 'The type-aware pass needs ts-morph, which is not installed here: `npm install -D ts-morph` turns it on; `mcp-bridge check --no-types` skips it without this warning.',
}

export async function typeDiagnostics(root: string, discoveries: readonly FileDiscovery[], load: () => Promise<TsMorph> = () => import('ts-morph')): Promise<TypeCheck> {
  const files = discoveries.filter((d) => d.tools.length || d.plugins.length)
  if (files.length === 0) return { diagnostics: [], inputs: [] }
  let m: TsMorph
  try {
    m = await load()
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error
    return { diagnostics: [TYPES_UNAVAILABLE], inputs: [] }
  }
  const project = createProject(m, root)
  const sources = files.map((d) => ({ discovery: d, source: project.addSourceFileAtPath(join(root, d.file)) }))
  project.resolveSourceFileDependencies()
  const diagnostics = sources.flatMap(({ discovery, source }) => fileDiagnostics(m, root, discovery, source))
  const read = project
    .getSourceFiles()
    .map((f) => f.getFilePath() as string)
    .filter((f) => !f.includes('/node_modules/'))
  // Every place a tsconfig may be, there or not: one created (or removed) later makes the kept answer stale.
  return { diagnostics, inputs: [...tsconfigCandidates(root), ...read] }
}

function fileDiagnostics(m: TsMorph, root: string, discovery: FileDiscovery, source: SourceFile): Diagnostic[] {
  const { Node, SyntaxKind, ts } = m
  const calls = source.getDescendantsOfKind(SyntaxKind.CallExpression)
  const named = (name: string) =>
    calls.filter((c) => {
      const e = c.getExpression()
      return Node.isPropertyAccessExpression(e) && e.getName() === name
    })
  // Where the checker's complaints are ours to report: inside .onElicit({...}) (plugins) and
  // inside ctx.elicit(...) calls (tools).
  const handlers = discovery.plugins.length ? named('onElicit') : []
  const elicits = discovery.tools.length ? named('elicit') : []
  const within = (call: CallExpression, pos: number) => call.getArguments().some((a) => pos >= a.getStart() && pos < a.getEnd())
  const out: Diagnostic[] = []
  for (const d of source.getPreEmitDiagnostics()) {
    const start = d.getStart()
    if (start === undefined || d.getCategory() !== ts.DiagnosticCategory.Error) continue
    const chain = linksOf(d.compilerObject.messageText, d.getCode())
    const text = chain.map((l) => l.text).join(' — ')
    const { line, column } = source.getLineAndColumnAtPos(start)
    const at = { file: relative(root, source.getFilePath()), line, column, severity: 'error' as const }
    const handler = handlers.find((c) => within(c, start))
    if (handler) {
      // A key without a handler: the discovery pass says so in its own words (PLUGIN_HANDLERS,
      // also without ts-morph); TypeScript's 600-character version of it would only repeat it.
      if (chain.some((l) => TS_MISSING_PROPERTIES.includes(l.code))) continue
      const key = handlerKeyAt(m, handler, start)
      out.push({ ...at, code: 'PLUGIN_HANDLER_TYPE', message: `The onElicit handler${key ? ` for "${key}"` : ''} ${handlerProblem(chain)}` })
      continue
    }
    const elicit = elicits.find((c) => within(c, start))
    if (elicit) {
      const key = elicit.getArguments()[0]
      const name = key && Node.isStringLiteral(key) ? key.getLiteralText() : undefined
      // TS2353 (an object literal's unknown property) is the usual case: say it in our words. The
      // property is the node the diagnostic starts at.
      const extra = d.getCode() === TS_UNKNOWN_PROPERTY ? source.getDescendantAtPos(start)?.getText() : undefined
      const call = `ctx.elicit(${name ? `"${name}"` : '...'}, {...})`
      out.push({
        ...at,
        code: 'ELICIT_CONTEXT_TYPE',
        message: extra
          ? `${call} passes "${extra}", which the key's context schema does not declare: add it to the key's \`context\` schema, or leave it out.`
          : `${call} does not match the key's declaration: ${text}`,
      })
    }
  }
  return out
}

/** TypeScript's diagnostic codes this pass reads (stable across versions and locales, unlike their text). */
const TS_NOT_ASSIGNABLE = 2322
const TS_PROPERTY_TYPES_INCOMPATIBLE = 2200
const TS_UNKNOWN_PROPERTY = 2353
/** "Property '{0}' is missing in type …" and "Type … is missing the following properties …": a handler left out. */
const TS_MISSING_PROPERTIES = [2741, 2739]

/** One message of a diagnostic's chain: its code and its text. */
interface ChainLink {
  code: number
  text: string
}

/** A diagnostic's message chain, depth first (a plain message is a chain of one). */
function linksOf(message: string | TsMorphModule.ts.DiagnosticMessageChain, code: number): ChainLink[] {
  if (typeof message === 'string') return [{ code, text: message }]
  return [{ code: message.code, text: message.messageText }, ...(message.next ?? []).flatMap((next) => linksOf(next, next.code))]
}

/** The arguments TypeScript put into a message of a known code, in order ('{0}', '{1}' of its template). */
function argumentsOf(link: ChainLink | undefined): string[] {
  return link ? [...link.text.matchAll(/'([^']*)'/g)].map((m) => m[1]!) : []
}

/**
 * A handler's type error in a sentence: the chain's last "types of property … are incompatible"
 * (TS2200) names the field, its last "not assignable" (TS2322) the two types; the
 * generator-and-iterator links before them are noise here.
 */
function handlerProblem(chain: readonly ChainLink[]): string {
  const field = argumentsOf(chain.findLast((l) => l.code === TS_PROPERTY_TYPES_INCOMPATIBLE))[0]
  const [given, wanted] = argumentsOf(chain.findLast((l) => l.code === TS_NOT_ASSIGNABLE))
  if (field?.startsWith('content') && given !== undefined && wanted !== undefined) return `answers with ${field} as ${given}, but the key's response schema wants ${wanted}.`
  return `does not match its key's types: ${chain
    .slice(-2)
    .map((l) => l.text)
    .join(' — ')}`
}

/** The handler key whose property holds `pos` in `.onElicit({ key(...) {...}, ... })`. */
function handlerKeyAt(m: TsMorph, call: CallExpression, pos: number): string | undefined {
  const map = call.getArguments()[0]
  if (!map || !m.Node.isObjectLiteralExpression(map)) return undefined
  const prop: TsNode | undefined = map.getProperties().find((p) => pos >= p.getStart() && pos < p.getEnd())
  return prop && 'getName' in prop && typeof prop.getName === 'function' ? String(prop.getName()).replace(/^(['"])(.*)\1$/, '$2') : undefined
}
