/**
 * zod emits `$ref: '#/$defs/X'` for schemas registered with an id and `$ref: '#'` for recursive
 * ones. Elicitation schemas must be self-contained, so local refs are inlined before checking;
 * a ref that points back into its own ancestry is recursive and reported, never expanded.
 */
import { isPlainObject, setOwn, type JsonSchema } from './json-schema.ts'

export interface InlineResult {
  schema: JsonSchema
  /** Pointers of `$ref`s that could not be inlined (recursive or dangling), or why inlining stopped. */
  unresolved: Array<{ pointer: string; ref: string; reason: 'recursive' | 'dangling' | 'too-large' }>
}

/** Nodes the inlined schema may have: refs that fan out (A uses B twice, B uses C twice...) stop here. */
export const MAX_INLINED_NODES = 10_000

class TooLarge extends Error {}

export function inlineLocalRefs(root: JsonSchema): InlineResult {
  const defs = isPlainObject(root.$defs) ? root.$defs : {}
  const unresolved: InlineResult['unresolved'] = []
  let budget = MAX_INLINED_NODES

  const resolve = (ref: string): unknown => (ref === '#' ? root : ref.startsWith('#/$defs/') ? defs[decodePointerToken(ref.slice('#/$defs/'.length))] : undefined)

  const walk = (node: unknown, pointer: string, active: ReadonlySet<string>): unknown => {
    if (--budget < 0) throw new TooLarge()
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${pointer}/${i}`, active))
    if (!isPlainObject(node)) return node
    if (typeof node.$ref === 'string') {
      const ref = node.$ref
      const target = resolve(ref)
      if (target === undefined) {
        unresolved.push({ pointer, ref, reason: 'dangling' })
        return {}
      }
      if (active.has(ref)) {
        unresolved.push({ pointer, ref, reason: 'recursive' })
        return {}
      }
      const { $ref: _drop, ...siblings } = node
      const expanded = walk(target, pointer, new Set([...active, ref]))
      return isPlainObject(expanded) ? { ...expanded, ...siblings } : expanded
    }
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === '$defs') continue
      setOwn(out, key, walk(value, `${pointer}/${encodePointerToken(key)}`, active))
    }
    return out
  }

  try {
    return { schema: walk(root, '', new Set(['#'])) as JsonSchema, unresolved }
  } catch (error) {
    if (!(error instanceof TooLarge)) throw error
    return { schema: {}, unresolved: [{ pointer: '', ref: '', reason: 'too-large' }] }
  }
}

export function encodePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

function decodePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~')
}

/** The top-level property a pointer like `/properties/tags/items` belongs to (`tags`). */
export function topLevelProperty(pointer: string): string | undefined {
  const match = /^\/properties\/([^/]+)/.exec(pointer)
  return match?.[1] === undefined ? undefined : decodePointerToken(match[1])
}
