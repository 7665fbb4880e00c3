/**
 * Recognising builder chains in an ESTree AST (Vite's `parseAst`: oxc), for discovery and the
 * split alike: which local names mean `createMcpTool` / `createPlugin` (named, renamed or namespace
 * imports of the runtime), and the method steps of a chain
 * (`createMcpTool('x').elicits(...).execute(...)`). One matcher, read from one table (`patterns.ts`).
 */
import { keyName, type EsNode } from './estree.ts'
import { PLUGIN_FACTORY, PROMPT_FACTORY, RESOURCE_FACTORY, RUNTIME_MODULE, TOOL_FACTORY } from './patterns.ts'

export type Factory = typeof TOOL_FACTORY | typeof PLUGIN_FACTORY | typeof PROMPT_FACTORY | typeof RESOURCE_FACTORY

const FACTORIES: ReadonlySet<string> = new Set([TOOL_FACTORY, PLUGIN_FACTORY, PROMPT_FACTORY, RESOURCE_FACTORY])

export interface Bindings {
  /** Local name → the factory it is bound to (named imports, renamed or not). */
  named: Map<string, Factory>
  namespaces: Set<string>
}

export interface Step {
  name: string
  call: EsNode
}

export function importDeclarations(program: EsNode): EsNode[] {
  return (program.body as EsNode[]).filter((n) => n.type === 'ImportDeclaration')
}

/** Local names bound to the factories (`createMcpTool`, `createPlugin`, …) by value imports of the runtime. */
export function runtimeBindings(program: EsNode): Bindings {
  const b: Bindings = { named: new Map(), namespaces: new Set() }
  for (const decl of importDeclarations(program)) {
    if ((decl.source as EsNode).value !== RUNTIME_MODULE || decl.importKind === 'type') continue
    for (const spec of decl.specifiers as EsNode[]) {
      const local = (spec.local as EsNode).name as string
      if (spec.type === 'ImportNamespaceSpecifier') b.namespaces.add(local)
      if (spec.type !== 'ImportSpecifier' || spec.importKind === 'type') continue
      const imported = keyName(spec.imported)
      if (imported !== undefined && FACTORIES.has(imported)) b.named.set(local, imported as Factory)
    }
  }
  return b
}

export function hasBindings(b: Bindings): boolean {
  return b.named.size + b.namespaces.size > 0
}

export function factoryOf(call: EsNode, b: Bindings): Factory | undefined {
  const callee = call.callee as EsNode
  if (callee.type === 'Identifier') return b.named.get(callee.name as string)
  if (callee.type === 'MemberExpression' && !callee.computed) {
    const object = callee.object as EsNode
    const name = keyName(callee.property)
    if (object.type === 'Identifier' && b.namespaces.has(object.name as string) && name !== undefined && FACTORIES.has(name)) return name as Factory
  }
  return undefined
}

/** The outermost call of the chain started by `call`, and its method steps in order. */
export function chainOf(call: EsNode, parents: ReadonlyMap<EsNode, EsNode>): { top: EsNode; steps: Step[] } {
  const steps: Step[] = []
  let top = call
  for (;;) {
    const access = parents.get(top)
    if (!access || access.type !== 'MemberExpression' || access.object !== top || access.computed) break
    const next = parents.get(access)
    if (!next || next.type !== 'CallExpression' || next.callee !== access) break
    steps.push({ name: keyName(access.property) ?? '', call: next })
    top = next
  }
  return { top, steps }
}

/**
 * The keys of an object literal written plainly (properties and methods with plain names, as in
 * `.onElicit({...})`); `undefined` when they cannot be read from the source (not a literal, a
 * spread, a computed key, an accessor), so no check relies on a guess.
 */
export function objectKeys(node: unknown): string[] | undefined {
  const object = node as EsNode | undefined
  if (!object || object.type !== 'ObjectExpression') return undefined
  const keys: string[] = []
  for (const p of object.properties as EsNode[]) {
    if (p.type !== 'Property' || p.kind !== 'init' || p.computed) return undefined
    const key = keyName(p.key)
    if (key === undefined) return undefined
    keys.push(key)
  }
  return keys
}
