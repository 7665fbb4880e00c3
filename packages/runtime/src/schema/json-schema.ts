/**
 * The JSON types every layer shares. Schemas are plain JSON objects: they cross HTTP,
 * the MCP wire and the generated manifest, so nothing here may hold a function or a class.
 */
export type JsonPrimitive = string | number | boolean | null
/**
 * A value JSON can carry as it is: string, number, boolean, null, arrays and objects of them.
 */
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue }
/**
 * A JSON object: named JSON values.
 */
export type JsonObject = { [key: string]: JsonValue }

/** A JSON Schema document, loosely typed: keywords are read defensively by the checker. */
export interface JsonSchema {
  [keyword: string]: unknown
}

/** The MCP form-mode `requestedSchema` shape (2025-11-25), plus our `x-model-context` extension. */
export interface ElicitationWireSchema {
  [keyword: string]: unknown
  $schema?: string
  type: 'object'
  properties: Record<string, JsonSchema>
  required?: string[]
  'x-model-context'?: JsonObject
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * Assign an own data property, even for keys like `__proto__`, which a plain `obj[key] = v`
 * would turn into a prototype change. Used wherever keys come from outside.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** What JSON data coming from outside may cost here, before any recursive code walks it. */
export interface JsonBounds {
  /** Deepest nesting of objects and arrays. */
  depth: number
  /** Objects and arrays visited (counting every path to a shared one). */
  nodes: number
}

/**
 * Whether `value` nests deeper or is larger than `bounds`, measured without recursion. A cycle
 * counts as too deep (it never ends); a fan-out of shared references as too large. So a hostile
 * input is measured in bounded time, never a stack overflow.
 */
export function exceedsJsonBounds(value: unknown, bounds: JsonBounds): 'depth' | 'nodes' | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }]
  let nodes = 0
  while (stack.length > 0) {
    const next = stack.pop()!
    if (next.value === null || typeof next.value !== 'object') continue
    if (next.depth >= bounds.depth) return 'depth'
    if (++nodes > bounds.nodes) return 'nodes'
    for (const child of Array.isArray(next.value) ? next.value : Object.values(next.value)) stack.push({ value: child, depth: next.depth + 1 })
  }
  return undefined
}
