/**
 * Which module-level declarations of a file use which others: what the split needs to remove
 * everything only a cut body used, and to say why something it could not remove is still there.
 *
 * The file's top level is cut into pieces — one per import binding, function, class, enum and
 * variable declarator, and one per other statement. A piece that must stay whatever it uses
 * (an export, a statement that runs, a side-effect import) is a root; the rest stay only while
 * a kept piece refers to them. References are resolved by `@typescript-eslint/scope-manager`
 * (shadowing, hoisting, JSX, and values apart from types: a name used only in a type annotation
 * keeps nothing), over the oxc AST the rest of discovery reads — no second parse.
 */
import { analyze, type Reference, type Variable } from '@typescript-eslint/scope-manager'
import { walk, type EsNode } from './estree.ts'

export interface Piece {
  /** The specifier, declaration, declarator or statement. */
  node: EsNode
  /** The top-level statement it is part of. */
  statement: EsNode
  /** Module-level value names it declares. */
  names: string[]
  /** Why it stays whatever it uses; undefined: only while a kept piece refers to it. */
  root?: 'export' | 'statement'
}

/** `from` uses `to` at `at` (the offset of the referring identifier). */
interface Edge {
  to: Piece
  at: number
}

export interface ModuleGraph {
  pieces: readonly Piece[]
  /** The piece whose range holds `offset` (top-level only). */
  pieceAt(offset: number): Piece | undefined
  /**
   * Every piece kept when the references inside `cut` are gone, with the way it was reached: the
   * piece that uses it and where (absent for roots). `from`: the roots to start at (all of them).
   */
  reach(cut: (offset: number) => boolean, from?: (root: Piece) => boolean): Map<Piece, { from: Piece; at: number } | undefined>
  /** The identifiers that read an unshadowed global `name` (`process`, …), outside type positions. */
  globalReads(name: string): EsNode[]
}

/** Statements that TypeScript erases: they declare no values and use none. */
const TYPE_ONLY = new Set(['TSInterfaceDeclaration', 'TSTypeAliasDeclaration', 'TSDeclareFunction'])

export function moduleGraph(program: EsNode): ModuleGraph {
  const pieces: Piece[] = []
  for (const statement of program.body as EsNode[]) pieces.push(...piecesOf(statement))
  pieces.sort((a, b) => a.node.start - b.node.start)

  const pieceAt = (offset: number): Piece | undefined => {
    let low = 0
    let high = pieces.length - 1
    while (low <= high) {
      const mid = (low + high) >> 1
      const p = pieces[mid]!
      if (offset < p.node.start) high = mid - 1
      else if (offset >= p.node.end) low = mid + 1
      else return p
    }
    return undefined
  }

  withRanges(program)
  const scopes = analyze(program as never, { sourceType: 'module', jsxPragma: null, lib: [] })
  const module = scopes.scopes.find((s) => s.type === 'module')
  const edges = new Map<Piece, Edge[]>()
  for (const variable of (module?.variables ?? []) as Variable[]) {
    const def = variable.defs[0]
    const to = def && pieceAt((def.node as unknown as EsNode).start)
    if (!to) continue
    for (const ref of variable.references as Reference[]) {
      if (!ref.isValueReference) continue
      const at = (ref.identifier as unknown as EsNode).start
      const from = pieceAt(at)
      // A declarator's own initialising write is not a use.
      if (!from || (from === to && ref.init)) continue
      const out = edges.get(from)
      if (out) out.push({ to, at })
      else edges.set(from, [{ to, at }])
    }
  }
  const through = (module?.through ?? []) as Reference[]

  return {
    pieces,
    pieceAt,
    reach(cut, start = () => true) {
      const reached = new Map<Piece, { from: Piece; at: number } | undefined>()
      const queue: Piece[] = []
      for (const p of pieces) {
        if (p.root && start(p)) {
          reached.set(p, undefined)
          queue.push(p)
        }
      }
      while (queue.length) {
        const from = queue.shift()!
        for (const { to, at } of edges.get(from) ?? []) {
          if (reached.has(to) || cut(at)) continue
          reached.set(to, { from, at })
          queue.push(to)
        }
      }
      return reached
    },
    globalReads(name) {
      return through.filter((r) => r.identifier.name === name && r.isValueReference).map((r) => r.identifier as unknown as EsNode)
    },
  }
}

function piecesOf(statement: EsNode): Piece[] {
  if (TYPE_ONLY.has(statement.type) || statement.declare === true) return []
  switch (statement.type) {
    case 'ImportDeclaration': {
      if (statement.importKind === 'type') return []
      const specifiers = statement.specifiers as EsNode[]
      // A side-effect import runs: it stays (the split may still drop a server-only one).
      if (specifiers.length === 0) return [{ node: statement, statement, names: [], root: 'statement' }]
      return specifiers.filter((s) => s.importKind !== 'type').map((node) => ({ node, statement, names: [(node.local as EsNode).name as string] }))
    }
    case 'ExportNamedDeclaration': {
      const declaration = statement.declaration as EsNode | null
      if (!declaration) return [{ node: statement, statement, names: [], root: 'export' }]
      return declared(declaration, statement).map((p) => ({ ...p, root: 'export' as const }))
    }
    case 'ExportDefaultDeclaration':
      return [{ node: statement, statement, names: [], root: 'export' }]
    case 'VariableDeclaration':
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'TSEnumDeclaration':
      return declared(statement, statement)
    default:
      return [{ node: statement, statement, names: [], root: 'statement' }]
  }
}

function declared(declaration: EsNode, statement: EsNode): Piece[] {
  if (TYPE_ONLY.has(declaration.type) || declaration.declare === true) return []
  if (declaration.type === 'VariableDeclaration') {
    return (declaration.declarations as EsNode[]).map((node) => ({ node, statement, names: patternNames(node.id as EsNode) }))
  }
  const id = declaration.id as EsNode | null | undefined
  if (declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration' || declaration.type === 'TSEnumDeclaration') {
    return [{ node: declaration, statement, names: id ? [id.name as string] : [] }]
  }
  // A namespace with values, `export import x = …`: kept as it is.
  return [{ node: declaration, statement, names: [], root: 'statement' }]
}

/** The names a binding pattern declares (`a`, `{ a, b: [c] }`, `...rest`, defaults). */
function patternNames(pattern: EsNode): string[] {
  const names: string[] = []
  const visit = (node: EsNode | null | undefined): void => {
    if (!node) return
    if (node.type === 'Identifier') names.push(node.name as string)
    else if (node.type === 'ObjectPattern') for (const p of node.properties as EsNode[]) visit(p.type === 'RestElement' ? p : (p.value as EsNode))
    else if (node.type === 'ArrayPattern') for (const e of node.elements as (EsNode | null)[]) visit(e)
    else if (node.type === 'RestElement') visit(node.argument as EsNode)
    else if (node.type === 'AssignmentPattern') visit(node.left as EsNode)
  }
  visit(pattern)
  return names
}

/** scope-manager reads `range`; oxc gives `start` / `end`. Added once per AST (it may be shared). */
function withRanges(program: EsNode): void {
  if (Array.isArray(program.range)) return
  walk(program, (node) => {
    node.range = [node.start, node.end]
  })
}
