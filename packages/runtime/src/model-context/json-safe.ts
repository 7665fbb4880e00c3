/**
 * Context data travels as JSON (in the schema and in the message). JSON.stringify silently
 * drops or rewrites what it cannot carry — functions vanish, `undefined` in an array becomes
 * `null`, a Date becomes a string, a Map becomes `{}` — and throws on BigInt and cycles.
 * We refuse such values up front and name the offending key, so the UI never gets
 * something other than what the tool passed.
 */
import { ModelContextError } from '../errors/definition-errors.ts'
import { isPlainObject } from '../schema/json-schema.ts'

/** How deeply JSON data may nest here; deeper input is refused before any recursive code sees it. */
export const MAX_JSON_DEPTH = 64

/**
 * Throw `ModelContextError` unless `value` round-trips through JSON unchanged (and nests at most `MAX_JSON_DEPTH` deep).
 *
 * @example
 * ```ts
 * import { assertJsonSafe } from '@mcp-bridge/runtime'
 * import { ModelContextError } from '@mcp-bridge/runtime/errors'
 *
 * assertJsonSafe({ flights: [{ id: 'JS-501', price: 299 }] }) // fine
 * try {
 *   assertJsonSafe({ flights: [{ id: 'JS-501', departs: new Date() }] })
 * } catch (error) {
 *   if (error instanceof ModelContextError) console.log(error.path) // 'flights[0].departs'
 * }
 * ```
 */
export function assertJsonSafe(value: unknown, path = ''): void {
  walk(value, path, new Set())
}

function walk(value: unknown, path: string, ancestors: Set<object>): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return
    case 'number':
      if (!Number.isFinite(value)) throw new ModelContextError(path, `is ${value}, which JSON turns into null`)
      return
    case 'bigint':
      throw new ModelContextError(path, 'is a BigInt, which JSON cannot carry; convert it to a number or a string')
    case 'function':
      throw new ModelContextError(path, 'is a function, which JSON cannot carry; pass data, not behaviour')
    case 'symbol':
      throw new ModelContextError(path, 'is a symbol, which JSON cannot carry')
    case 'undefined':
      throw new ModelContextError(path, 'is undefined, which JSON cannot carry (in an array it would become null)')
  }
  if (value === null) return
  const object = value as object
  if (ancestors.has(object)) throw new ModelContextError(path, 'refers back to itself (a cycle), which JSON cannot carry')
  if (ancestors.size >= MAX_JSON_DEPTH) throw new ModelContextError(path, `nests deeper than ${MAX_JSON_DEPTH} levels; flatten it`)
  ancestors.add(object)
  if (Array.isArray(object)) {
    object.forEach((item, i) => walk(item, `${path}[${i}]`, ancestors))
  } else if (isPlainObject(object)) {
    for (const [key, item] of Object.entries(object)) {
      // An undefined property is simply absent in JSON, as in any optional field.
      if (item === undefined) continue
      walk(item, path ? `${path}.${key}` : key, ancestors)
    }
  } else {
    const kind = object.constructor?.name ?? 'object'
    const hint = object instanceof Date ? '; pass date.toISOString()' : ''
    throw new ModelContextError(path, `is a ${kind}, which JSON does not carry faithfully${hint}`)
  }
  ancestors.delete(object)
}
