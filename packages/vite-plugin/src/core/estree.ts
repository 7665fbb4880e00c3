/**
 * The little discovery and the split need from an ESTree AST: a loose node shape, the parse,
 * and a walk that knows each node's parent.
 *
 * The parser is oxc (`oxc-parser`, the parser Vite 8 itself ships inside rolldown), a dependency
 * of ours rather than Vite's copy, so tool files parse the same on Vite 6, 7 and 8 (Vite 6 and
 * 7 ship Rollup's parser, which reads no TypeScript). Its ESTree output is the one rolldown's
 * `parseAst` gives. Loaded once, when this module is: a cold `mcp-bridge check` pays for the
 * parser, not for Vite.
 */
import { SourceParseError, ParserUnavailableError } from './errors.ts'

type Lang = 'js' | 'jsx' | 'ts' | 'tsx'
interface OxcError {
  message: string
  labels?: { start: number }[]
}
type ParseSync = (file: string, code: string, options: { lang: Lang; sourceType: 'module'; astType: 'ts'; preserveParens: false }) => { program: unknown; errors: OxcError[] }

/** oxc's parser; undefined if its native binding could not load (said when a file is parsed). */
const parser: { parseSync: ParseSync } | { failed: unknown } = await import('oxc-parser').then(
  (m) => ({ parseSync: (m as unknown as { parseSync: ParseSync }).parseSync }),
  (error: unknown) => ({ failed: error }),
)

export interface EsNode {
  type: string
  start: number
  end: number
  [key: string]: unknown
}

export function isNode(value: unknown): value is EsNode {
  return typeof value === 'object' && value !== null && typeof (value as EsNode).type === 'string' && typeof (value as EsNode).start === 'number'
}

/**
 * Parse a module; the language follows the file's extension (TSX when unsure: it accepts the
 * most). A syntax error throws `SourceParseError` with oxc's first message and its offset.
 */
export function parseModule(code: string, id: string): EsNode {
  const ext = /\.([cm]?[jt]sx?)(?:\?.*)?$/.exec(id)?.[1] ?? 'tsx'
  const lang: Lang = ext.endsWith('x') ? (ext.includes('t') ? 'tsx' : 'jsx') : ext.includes('t') ? 'ts' : 'js'
  if ('failed' in parser) throw new ParserUnavailableError(parser.failed)
  // Parens are not kept as nodes (as rolldown's parseAst): `(a).b` is a member of `a`.
  const { program, errors } = parser.parseSync(id.replace(/[?#].*$/, ''), code, { lang, sourceType: 'module', astType: 'ts', preserveParens: false })
  const first = errors[0]
  if (first) throw new SourceParseError(first.message, first.labels?.[0]?.start ?? 0)
  return program as EsNode
}

/** Visit every node depth-first, with its parent. */
export function walk(root: EsNode, visit: (node: EsNode, parent: EsNode | undefined) => void): void {
  const stack: Array<[EsNode, EsNode | undefined]> = [[root, undefined]]
  while (stack.length) {
    const [node, parent] = stack.pop()!
    visit(node, parent)
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end') continue
      const value = node[key]
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (isNode(value[i])) stack.push([value[i] as EsNode, node])
      } else if (isNode(value)) stack.push([value, node])
    }
  }
}

/** The name of a non-computed property key or member property (`a` in `x.a`, `{ a: 1 }`, `{ 'a': 1 }`). */
export function keyName(node: unknown): string | undefined {
  if (!isNode(node)) return undefined
  if (node.type === 'Identifier') return node.name as string
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value
  return undefined
}
