/**
 * The generated form's model, from the request's JSON Schema alone (what a basic MCP client has):
 * which field to show for each property, its initial value, how to turn inputs into content,
 * and the checks to run before sending. Pure functions; the React component only renders.
 */
import type { IssueSummary } from '../errors/issues.ts'
import { choicesOf, fieldLabel, type Choice } from '../schema/field-labels.ts'
import { isPlainObject, setOwn, type JsonSchema } from '../schema/json-schema.ts'

export type { Choice }

/**
 * One field of the generated form, from one property of a requested schema: text, number, checkbox, yes/no, select or multi-select.
 */
export type FormField =
  | {
      kind: 'text'
      name: string
      label: string
      description?: string
      required: boolean
      format?: 'email' | 'uri' | 'date' | 'date-time'
      minLength?: number
      maxLength?: number
      default?: string
    }
  | { kind: 'number'; name: string; label: string; description?: string; required: boolean; integer: boolean; minimum?: number; maximum?: number; default?: number }
  | { kind: 'checkbox'; name: string; label: string; description?: string; required: boolean; default?: boolean }
  /** A required boolean with no default: an explicit Yes or No, so "not answered" is never sent as false. */
  | { kind: 'yes-no'; name: string; label: string; description?: string; required: true }
  | { kind: 'select'; name: string; label: string; description?: string; required: boolean; choices: Choice[]; default?: string }
  | { kind: 'multi-select'; name: string; label: string; description?: string; required: boolean; choices: Choice[]; minItems?: number; maxItems?: number; default?: string[] }

/** What the inputs hold: strings for text/number/select, booleans, string arrays. */
export type FormValues = Record<string, string | boolean | string[]>

/**
 * The generated form's fields for an MCP requested schema (what a basic MCP client has).
 *
 * @example
 * ```ts
 * import { fieldsFromSchema } from '@mcp-bridge/runtime/client'
 *
 * fieldsFromSchema({ type: 'object', properties: { seat: { type: 'string', enum: ['A', 'B'] } }, required: ['seat'] })
 * // [{ kind: 'select', name: 'seat', label: 'Seat', required: true, choices: [{ value: 'A', label: 'A' }, { value: 'B', label: 'B' }] }]
 * ```
 */
export function fieldsFromSchema(schema: JsonSchema): FormField[] {
  const properties = isPlainObject(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  const fields: FormField[] = []
  for (const [name, raw] of Object.entries(properties)) {
    if (!isPlainObject(raw)) continue
    const base = {
      name,
      label: fieldLabel(name, raw),
      ...(typeof raw.description === 'string' && { description: raw.description }),
      required: required.has(name),
    }
    const single = choicesOf(raw)
    if (raw.type === 'array') {
      const items = isPlainObject(raw.items) ? raw.items : {}
      fields.push({
        kind: 'multi-select',
        ...base,
        choices: choicesOf(items) ?? [],
        ...(typeof raw.minItems === 'number' && { minItems: raw.minItems }),
        ...(typeof raw.maxItems === 'number' && { maxItems: raw.maxItems }),
        ...(Array.isArray(raw.default) && { default: raw.default.filter((v): v is string => typeof v === 'string') }),
      })
    } else if (single) {
      fields.push({ kind: 'select', ...base, choices: single, ...(typeof raw.default === 'string' && { default: raw.default }) })
    } else if (raw.type === 'boolean') {
      if (base.required && typeof raw.default !== 'boolean') fields.push({ kind: 'yes-no', ...base, required: true })
      else fields.push({ kind: 'checkbox', ...base, ...(typeof raw.default === 'boolean' && { default: raw.default }) })
    } else if (raw.type === 'number' || raw.type === 'integer') {
      fields.push({
        kind: 'number',
        ...base,
        integer: raw.type === 'integer',
        ...(typeof raw.minimum === 'number' && { minimum: raw.minimum }),
        ...(typeof raw.maximum === 'number' && { maximum: raw.maximum }),
        ...(typeof raw.default === 'number' && { default: raw.default }),
      })
    } else {
      const format = raw.format
      fields.push({
        kind: 'text',
        ...base,
        ...((format === 'email' || format === 'uri' || format === 'date' || format === 'date-time') && { format }),
        ...(typeof raw.minLength === 'number' && { minLength: raw.minLength }),
        ...(typeof raw.maxLength === 'number' && { maxLength: raw.maxLength }),
        ...(typeof raw.default === 'string' && { default: raw.default }),
      })
    }
  }
  return fields
}

/**
 * What the generated form's inputs start with: each field's default, or empty.
 *
 * @example
 * ```ts
 * import { fieldsFromSchema, initialValues } from '@mcp-bridge/runtime/client'
 *
 * initialValues(fieldsFromSchema({ type: 'object', properties: { name: { type: 'string', default: 'Ada' } } })) // { name: 'Ada' }
 * ```
 */
export function initialValues(fields: readonly FormField[]): FormValues {
  const values: FormValues = {}
  for (const f of fields) {
    if (f.kind === 'yes-no') continue // unanswered until the user chooses
    if (f.kind === 'checkbox') setOwn(values, f.name, f.default ?? false)
    else if (f.kind === 'multi-select') setOwn(values, f.name, f.default ?? [])
    else if (f.kind === 'number') setOwn(values, f.name, f.default === undefined ? '' : String(f.default))
    else setOwn(values, f.name, f.default ?? '')
  }
  return values
}

/**
 * Check the inputs; an empty list means `toContent` may be sent.
 *
 * @example
 * ```ts
 * import { fieldsFromSchema, validateForm } from '@mcp-bridge/runtime/client'
 *
 * const fields = fieldsFromSchema({ type: 'object', properties: { row: { type: 'integer', minimum: 1 } }, required: ['row'] })
 * validateForm(fields, { row: '' }) // [{ path: 'row', message: … }]: nothing is sent until it is fixed
 * ```
 */
export function validateForm(fields: readonly FormField[], values: FormValues): IssueSummary[] {
  const issues: IssueSummary[] = []
  const add = (path: string, message: string) => issues.push({ path, message })
  for (const f of fields) {
    const v = values[f.name]
    if (f.kind === 'checkbox') continue
    if (f.kind === 'yes-no') {
      if (v !== true && v !== false) add(f.name, 'Choose yes or no')
      continue
    }
    if (f.kind === 'multi-select') {
      const picked = Array.isArray(v) ? v : []
      // "Required" only means the field is sent; an empty selection is valid unless minItems says otherwise.
      if (f.minItems !== undefined && picked.length < f.minItems) add(f.name, f.minItems === 1 ? 'Choose at least one option' : `Choose at least ${f.minItems}`)
      if (f.maxItems !== undefined && picked.length > f.maxItems) add(f.name, `Choose at most ${f.maxItems}`)
      continue
    }
    const text = typeof v === 'string' ? v.trim() : ''
    if (text === '') {
      if (f.required) add(f.name, f.kind === 'select' ? 'Choose one of the options' : 'Required')
      continue
    }
    if (f.kind === 'number') {
      const n = Number(text)
      if (!Number.isFinite(n)) add(f.name, 'Enter a number')
      else if (f.integer && !Number.isInteger(n)) add(f.name, 'Enter a whole number')
      else if (f.minimum !== undefined && n < f.minimum) add(f.name, `Must be at least ${f.minimum}`)
      else if (f.maximum !== undefined && n > f.maximum) add(f.name, `Must be at most ${f.maximum}`)
    } else if (f.kind === 'select') {
      if (!f.choices.some((c) => c.value === text)) add(f.name, 'Choose one of the options')
    } else {
      if (f.minLength !== undefined && text.length < f.minLength) add(f.name, `At least ${f.minLength} characters`)
      if (f.maxLength !== undefined && text.length > f.maxLength) add(f.name, `At most ${f.maxLength} characters`)
      const formatProblem = f.format && checkFormat(f.format, text)
      if (formatProblem) add(f.name, formatProblem)
    }
  }
  return issues
}

/**
 * The content to send: numbers as numbers, empty optional fields left out.
 *
 * @example
 * ```ts
 * import { fieldsFromSchema, toContent } from '@mcp-bridge/runtime/client'
 *
 * const fields = fieldsFromSchema({ type: 'object', properties: { row: { type: 'integer' } } })
 * toContent(fields, { row: '12' }) // { row: 12 }
 * ```
 */
export function toContent(fields: readonly FormField[], values: FormValues): Record<string, unknown> {
  const content: Record<string, unknown> = {}
  for (const f of fields) {
    const v = values[f.name]
    if (f.kind === 'checkbox') setOwn(content, f.name, v === true)
    else if (f.kind === 'yes-no') {
      if (typeof v === 'boolean') setOwn(content, f.name, v)
    } else if (f.kind === 'multi-select') {
      if (Array.isArray(v) && (v.length > 0 || f.required)) setOwn(content, f.name, v)
    } else {
      const text = typeof v === 'string' ? v.trim() : ''
      if (text === '') continue
      setOwn(content, f.name, f.kind === 'number' ? Number(text) : f.kind === 'text' && f.format === 'date-time' ? toIsoDateTime(text) : text)
    }
  }
  return content
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

function checkFormat(format: 'email' | 'uri' | 'date' | 'date-time', text: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? undefined : 'Enter an email address'
    case 'uri':
      return URL.canParse(text) ? undefined : 'Enter a full URL, e.g. https://example.com'
    case 'date':
      return DATE.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : 'Enter a date (YYYY-MM-DD)'
    case 'date-time':
      return Number.isNaN(Date.parse(text)) ? 'Enter a date and time' : undefined
  }
}

/** `<input type="datetime-local">` gives `2026-11-22T10:30`; the schema wants RFC 3339. */
function toIsoDateTime(text: string): string {
  const parsed = Date.parse(text)
  return Number.isNaN(parsed) ? text : new Date(parsed).toISOString()
}
