/**
 * `mcp-bridge check`'s type-aware pass: the TypeScript checker (through ts-morph) over the files
 * that define tools and plugins, reporting at `file:line:col` what the types already know and
 * the build cannot see — a handler whose answer does not match its key's response type, and
 * context props passed to `ctx.elicit` that the key's context schema does not declare. Only
 * `check` pays for loading the checker (about a second); dev and build never run this, and
 * `check --no-types` skips it. Other type errors in those files are the app's `tsc`'s to report.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { CallExpression, Node as TsNode, Project, SourceFile } from 'ts-morph'
import type { Diagnostic } from './diagnostics.ts'
import { relative, type FileDiscovery } from './discover.ts'

type TsMorph = typeof import('ts-morph')

/** The tsconfig a Vite app checks its sources with (the react-ts template's app config first). */
function tsconfigOf(root: string): string | undefined {
  return ['tsconfig.app.json', 'tsconfig.json'].map((name) => join(root, name)).find((path) => existsSync(path))
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

export async function typeDiagnostics(root: string, discoveries: readonly FileDiscovery[]): Promise<TypeCheck> {
  const files = discoveries.filter((d) => d.tools.length || d.plugins.length)
  if (files.length === 0) return { diagnostics: [], inputs: [] }
  const m = await import('ts-morph')
  const project = createProject(m, root)
  const sources = files.map((d) => ({ discovery: d, source: project.addSourceFileAtPath(join(root, d.file)) }))
  project.resolveSourceFileDependencies()
  const diagnostics = sources.flatMap(({ discovery, source }) => fileDiagnostics(m, root, discovery, source))
  const read = project.getSourceFiles().map((f) => f.getFilePath() as string).filter((f) => !f.includes('/node_modules/'))
  const tsconfig = tsconfigOf(root)
  return { diagnostics, inputs: tsconfig ? [tsconfig, ...read] : read }
}

function fileDiagnostics(m: TsMorph, root: string, discovery: FileDiscovery, source: SourceFile): Diagnostic[] {
  const { Node, SyntaxKind, ts } = m
  const calls = source.getDescendantsOfKind(SyntaxKind.CallExpression)
  const named = (name: string) => calls.filter((c) => { const e = c.getExpression(); return Node.isPropertyAccessExpression(e) && e.getName() === name })
  // Where the checker's complaints are ours to report: inside .onElicit({...}) (plugins) and
  // inside ctx.elicit(...) calls (tools).
  const handlers = discovery.plugins.length ? named('onElicit') : []
  const elicits = discovery.tools.length ? named('elicit') : []
  const within = (call: CallExpression, pos: number) => call.getArguments().some((a) => pos >= a.getStart() && pos < a.getEnd())
  const out: Diagnostic[] = []
  for (const d of source.getPreEmitDiagnostics()) {
    const start = d.getStart()
    if (start === undefined || d.getCategory() !== ts.DiagnosticCategory.Error) continue
    const chain = ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n').split('\n').map((l) => l.trim())
    const text = chain.join(' — ')
    const { line, column } = source.getLineAndColumnAtPos(start)
    const at = { file: relative(root, source.getFilePath()), line, column, severity: 'error' as const }
    const handler = handlers.find((c) => within(c, start))
    if (handler) {
      const key = handlerKeyAt(m, handler, start)
      out.push({ ...at, code: 'PLUGIN_HANDLER_TYPE', message: `The onElicit handler${key ? ` for "${key}"` : ''} ${handlerProblem(chain)}` })
      continue
    }
    const elicit = elicits.find((c) => within(c, start))
    if (elicit) {
      const key = elicit.getArguments()[0]
      const name = key && Node.isStringLiteral(key) ? key.getLiteralText() : undefined
      // TS2353 (an object literal's unknown property) is the usual case: say it in our words.
      const extra = d.getCode() === 2353 ? /'([^']+)' does not exist in type/.exec(text)?.[1] : undefined
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

/**
 * A handler's type error in a sentence: the checker's chain ends with the field and the types
 * that disagree ("The types of 'content.color' are incompatible…", "Type 'number' is not
 * assignable to type 'string'."); the generator-and-iterator steps before it are noise here.
 */
function handlerProblem(chain: readonly string[]): string {
  const field = chain.map((l) => /^The types of '([^']+)' are incompatible/.exec(l)?.[1]).findLast((f) => f !== undefined)
  const types = /^Type '(.+)' is not assignable to type '(.+)'\.?$/.exec(chain.at(-1) ?? '')
  if (field?.startsWith('content') && types) return `answers with ${field} as ${types[1]}, but the key's response schema wants ${types[2]}.`
  return `does not match its key's types: ${chain.slice(-2).join(' — ')}`
}

/** The handler key whose property holds `pos` in `.onElicit({ key(...) {...}, ... })`. */
function handlerKeyAt(m: TsMorph, call: CallExpression, pos: number): string | undefined {
  const map = call.getArguments()[0]
  if (!map || !m.Node.isObjectLiteralExpression(map)) return undefined
  const prop: TsNode | undefined = map.getProperties().find((p) => pos >= p.getStart() && pos < p.getEnd())
  return prop && 'getName' in prop && typeof prop.getName === 'function' ? String(prop.getName()).replace(/^(['"])(.*)\1$/, '$2') : undefined
}
