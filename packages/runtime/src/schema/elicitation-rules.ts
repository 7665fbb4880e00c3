/**
 * The MCP 2025-11-25 form-mode rules as data: which keywords each primitive may carry on the
 * wire. The analyzer reads these tables; nothing else in the code base spells them out.
 */
export const ALLOWED_FORMATS = ['email', 'uri', 'date', 'date-time'] as const

/** Keywords every property may carry. */
const COMMON = ['type', 'title', 'description', 'default'] as const

export const WIRE_KEYWORDS = {
  string: [...COMMON, 'minLength', 'maxLength', 'format'],
  number: [...COMMON, 'minimum', 'maximum'],
  boolean: [...COMMON],
  enum: [...COMMON, 'enum'],
  titledEnum: [...COMMON, 'oneOf'],
  legacyEnum: [...COMMON, 'enum', 'enumNames'],
  multiSelect: [...COMMON, 'items', 'minItems', 'maxItems'],
  root: ['$schema', 'type', 'properties', 'required'],
} as const satisfies Record<string, readonly string[]>

/**
 * Keywords zod emits that carry no meaning for a form and are dropped without a warning:
 * `pattern` next to an allowed format is zod's own regex for that format, and `$defs` /
 * `$ref` are inlined before checking.
 */
export const SILENT_KEYWORDS = new Set(['$defs', '$ref', '$id', 'id'])

/** zod's implicit bounds for `z.int()`; not the author's, so not worth showing in a form. */
export const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])

/** How to express each unrepresentable zod type; keyed by zod's `def.type`. */
export const UNREPRESENTABLE_FIXES: Record<string, string> = {
  date: 'z.date() has no JSON form; use z.iso.date() or z.iso.datetime() (a string) and convert in the tool',
  bigint: 'z.bigint() has no JSON form; use z.int() or a z.string() of digits',
  symbol: 'z.symbol() cannot be sent to a client; use z.enum([...])',
  undefined: 'z.undefined() cannot be answered by a form; remove the property or make another one .optional()',
  void: 'z.void() cannot be answered by a form; remove the property',
  map: 'z.map() has no JSON form; elicitation fields are flat primitives',
  set: 'z.set() has no JSON form; use z.array(z.enum([...])) for a multi-select',
  function: 'a function cannot be sent to a client',
  nan: 'z.nan() has no JSON form; use z.number()',
  custom: 'z.custom() has no JSON Schema; use a zod primitive with .refine()',
  promise: 'z.promise() cannot be answered by a form',
  transform: 'a transform has no JSON Schema for what the tool receives; elicit the raw value and transform it inside the tool',
}
