/**
 * The client/server split. A tool module is imported by both bundles (the plugin imports the
 * tool, the server imports the plugin), so each bundle would carry the other's code. We cut it:
 *
 *   - client: the argument of `.execute(...)` / `.handoff(...)` in a `createMcpTool` chain
 *     becomes a stub that throws if ever called, so server code (and what it imports) is gone;
 *   - server: the handlers of `.onElicit({...})` in a `makePlugin` chain become stubs with the
 *     same keys, so React components drop out of the server bundle.
 *
 * Imports are removed only when an edit made them unused. Code the splitter cannot see through
 * (a wrapper, a re-export) is reported by discovery as an error, never silently shipped.
 */
import MagicString from 'magic-string'
import { Node, Project, SyntaxKind, ts, type SourceFile } from 'ts-morph'
import { chainOf, factoryOf, objectKeys, runtimeBindings } from './chains.ts'
import { CLIENT_STEPS, PLUGIN_FACTORY, RUNTIME_MODULE, SERVER_STEPS, TOOL_FACTORY } from './patterns.ts'

export type SplitTarget = 'client' | 'server'

export interface SplitResult {
  code: string
  map: ReturnType<MagicString['generateMap']>
  /** What was cut, for reports and tests. */
  removed: { steps: string[]; imports: string[]; sources: string[] }
}

const project = new Project({
  useInMemoryFileSystem: true,
  compilerOptions: { jsx: ts.JsxEmit.Preserve, allowJs: true, target: ts.ScriptTarget.ES2022 },
})

export function splitModule(code: string, id: string, target: SplitTarget): SplitResult | undefined {
  if (!code.includes(RUNTIME_MODULE)) return undefined
  const file = project.createSourceFile(`/split${/\.[cm]?[jt]sx?$/.test(id) ? id.slice(id.lastIndexOf('.')) : '.ts'}`, code, { overwrite: true })
  try {
    return split(file, code, id, target)
  } finally {
    project.removeSourceFile(file)
  }
}

function split(file: SourceFile, code: string, id: string, target: SplitTarget): SplitResult | undefined {
  const factories = runtimeBindings(file)
  const wanted = target === 'client' ? TOOL_FACTORY : PLUGIN_FACTORY
  const steps = new Set<string>(target === 'client' ? SERVER_STEPS : CLIENT_STEPS)
  const cuts: Array<{ node: Node; replacement: string; step: string }> = []

  for (const call of file.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    if (factoryOf(call, factories) !== wanted) continue
    for (const step of chainOf(call).steps) {
      if (!steps.has(step.name)) continue
      const arg = step.call.getArguments()[0]
      if (!arg) continue
      cuts.push({ node: arg, replacement: stubFor(step.name, arg, target), step: step.name })
    }
  }
  if (cuts.length === 0) return undefined

  const s = new MagicString(code)
  for (const cut of cuts) s.overwrite(cut.node.getStart(), cut.node.getEnd(), cut.replacement)

  const { names: removedImports, sources } = removeUnusedImports(file, cuts.map((c) => c.node), s)
  return {
    code: s.toString(),
    map: s.generateMap({ source: id, includeContent: true, hires: 'boundary' }),
    removed: { steps: cuts.map((c) => c.step), imports: removedImports, sources },
  }
}

function stubFor(step: string, arg: Node, target: SplitTarget): string {
  const where = target === 'client' ? 'in the browser' : 'on the server'
  const fail = `() => { throw new Error(${JSON.stringify(`mcp-bridge: .${step}() was removed from this bundle (it does not run ${where}). If you see this, code ${where} called it directly; run the tool through the chat handler or MCP server instead.`)}) }`
  if (step === 'execute') return fail
  if (step === 'handoff') return `{ before: ${fail}, client: ${fail}, after: ${fail} }`
  // onElicit: keep the keys, since makePlugin checks them against the tool.
  const keys = objectKeys(arg)
  return `{ ${keys.map((k) => `${k}: ${fail}`).join(', ')} }`
}

/** Remove import specifiers whose every use was inside a cut (and only those). */
function removeUnusedImports(file: SourceFile, cut: Node[], s: MagicString): { names: string[]; sources: string[] } {
  const inCut = (node: Node) => cut.some((c) => node.getStart() >= c.getStart() && node.getEnd() <= c.getEnd())
  const removed: string[] = []
  const sources: string[] = []
  for (const decl of file.getImportDeclarations()) {
    const clause = decl.getImportClause()
    if (!clause) continue // side-effect import: never touched
    const bindings: Array<{ name: string; node: Node }> = []
    const def = clause.getDefaultImport()
    if (def) bindings.push({ name: def.getText(), node: def })
    const ns = clause.getNamespaceImport()
    if (ns) bindings.push({ name: ns.getText(), node: ns })
    for (const named of clause.getNamedImports()) bindings.push({ name: named.getAliasNode()?.getText() ?? named.getName(), node: named })

    const dead = bindings.filter((b) => {
      const uses = file
        .getDescendantsOfKind(SyntaxKind.Identifier)
        .filter((i) => i.getText() === b.name && !i.getFirstAncestorByKind(SyntaxKind.ImportDeclaration))
      return uses.length > 0 && uses.every(inCut)
    })
    if (dead.length === 0) continue
    removed.push(...dead.map((b) => b.name))
    if (dead.length === bindings.length) {
      s.remove(decl.getStart(), decl.getEnd())
      sources.push(decl.getModuleSpecifierValue())
      continue
    }
    for (const b of dead) {
      const node = b.node
      // Remove the specifier with its comma.
      const next = node.getNextSiblingIfKind(SyntaxKind.CommaToken)
      const prev = node.getPreviousSiblingIfKind(SyntaxKind.CommaToken)
      if (next) s.remove(node.getStart(), next.getEnd())
      else if (prev) s.remove(prev.getStart(), node.getEnd())
      else s.remove(node.getStart(), node.getEnd())
    }
  }
  return { names: removed, sources }
}

