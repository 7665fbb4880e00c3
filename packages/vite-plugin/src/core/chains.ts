/**
 * Recognising builder chains in a ts-morph AST, for discovery: which local names mean
 * `createMcpTool` / `makePlugin` (named, renamed or namespace imports of the runtime), and the
 * method steps of a chain (`createMcpTool('x').elicits(...).execute(...)`). The split does the
 * same on oxc's AST (`split.ts`) from the same table (`patterns.ts`); a test checks they agree.
 */
import type { CallExpression, SourceFile } from 'ts-morph'
import { Node } from './ts-morph.ts'
import { PLUGIN_FACTORY, RUNTIME_MODULE, TOOL_FACTORY } from './patterns.ts'

export type Factory = typeof TOOL_FACTORY | typeof PLUGIN_FACTORY

export interface Bindings {
  tool: Set<string>
  plugin: Set<string>
  namespaces: Set<string>
}

export interface Step {
  name: string
  call: CallExpression
}

export function runtimeBindings(file: SourceFile): Bindings {
  const b: Bindings = { tool: new Set(), plugin: new Set(), namespaces: new Set() }
  for (const decl of file.getImportDeclarations()) {
    if (decl.getModuleSpecifierValue() !== RUNTIME_MODULE) continue
    const ns = decl.getNamespaceImport()
    if (ns) b.namespaces.add(ns.getText())
    for (const named of decl.getNamedImports()) {
      const local = named.getAliasNode()?.getText() ?? named.getName()
      if (named.getName() === TOOL_FACTORY) b.tool.add(local)
      if (named.getName() === PLUGIN_FACTORY) b.plugin.add(local)
    }
  }
  return b
}

export function hasBindings(b: Bindings): boolean {
  return b.tool.size + b.plugin.size + b.namespaces.size > 0
}

export function factoryOf(call: CallExpression, b: Bindings): Factory | undefined {
  const callee = call.getExpression()
  if (Node.isIdentifier(callee)) {
    if (b.tool.has(callee.getText())) return TOOL_FACTORY
    if (b.plugin.has(callee.getText())) return PLUGIN_FACTORY
  }
  if (Node.isPropertyAccessExpression(callee) && b.namespaces.has(callee.getExpression().getText())) {
    const name = callee.getName()
    if (name === TOOL_FACTORY || name === PLUGIN_FACTORY) return name
  }
  return undefined
}

/** The outermost call of the chain started by `call`, and its method steps in order. */
export function chainOf(call: CallExpression): { top: Node; steps: Step[] } {
  const steps: Step[] = []
  let top: Node = call
  for (;;) {
    const access = top.getParent()
    if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== top) break
    const next = access.getParent()
    if (!next || !Node.isCallExpression(next) || next.getExpression() !== access) break
    steps.push({ name: access.getName(), call: next })
    top = next
  }
  return { top, steps }
}

/**
 * The handler keys of an `.onElicit({...})` object literal; `undefined` when they cannot be read
 * from the source (not a literal, a spread, a computed key), so no check relies on a guess.
 */
export function objectKeys(node: Node | undefined): string[] | undefined {
  if (!node || !Node.isObjectLiteralExpression(node)) return undefined
  const keys: string[] = []
  for (const p of node.getProperties()) {
    if (!(Node.isPropertyAssignment(p) || Node.isMethodDeclaration(p) || Node.isShorthandPropertyAssignment(p))) return undefined
    if (Node.isComputedPropertyName(p.getNameNode())) return undefined
    keys.push(p.getName().replace(/^(['"])(.*)\1$/, '$2'))
  }
  return keys
}
