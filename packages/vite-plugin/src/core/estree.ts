/**
 * The little discovery and the split need from an ESTree AST (oxc's, through rolldown — the
 * parser Vite ships): a loose node shape and a walk that knows each node's parent.
 *
 * The parser is Vite's own copy of rolldown, resolved from where the app's `vite` is installed:
 * no second rolldown (and native binding) beside Vite's, no version of ours to drift from it.
 * Its `parseAst` entry is imported directly rather than through `vite`, which takes ~8× longer
 * to load: a cold `mcp-bridge check` pays for the parser, not for Vite.
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { UnsupportedViteError } from './errors.ts'

function viteVersion(): string {
  try {
    return (createRequire(import.meta.url)('vite/package.json') as { version: string }).version
  } catch {
    return 'unknown (not installed?)'
  }
}

type ParseAst = (code: string, options: { lang: 'js' | 'jsx' | 'ts' | 'tsx'; sourceType: 'module' }) => unknown

/** Vite 8's parser; missing under an older Vite (the plugin then refuses to run, saying why). */
const parseAst: ParseAst | undefined = await (async () => {
  try {
    const viteRequire = createRequire(createRequire(import.meta.url).resolve('vite/package.json'))
    return ((await import(pathToFileURL(viteRequire.resolve('rolldown/parseAst')).href)) as { parseAst: ParseAst }).parseAst
  } catch {
    return undefined
  }
})()

export interface EsNode {
  type: string
  start: number
  end: number
  [key: string]: unknown
}

export function isNode(value: unknown): value is EsNode {
  return typeof value === 'object' && value !== null && typeof (value as EsNode).type === 'string' && typeof (value as EsNode).start === 'number'
}

/** Parse a module; the language follows the file's extension (TSX when unsure: it accepts the most). */
export function parseModule(code: string, id: string): EsNode {
  const ext = /\.([cm]?[jt]sx?)(?:\?.*)?$/.exec(id)?.[1] ?? 'tsx'
  const lang = ext.endsWith('x') ? (ext.includes('t') ? 'tsx' : 'jsx') : ext.includes('t') ? 'ts' : 'js'
  if (!parseAst) throw new UnsupportedViteError(viteVersion())
  return parseAst(code, { lang, sourceType: 'module' }) as unknown as EsNode
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
