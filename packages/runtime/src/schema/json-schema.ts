/**
 * The JSON types every layer shares. Schemas are plain JSON objects: they cross HTTP,
 * the MCP wire and the generated manifest, so nothing here may hold a function or a class.
 */
export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue }
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
