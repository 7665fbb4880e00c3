/**
 * How a property of a requested schema is named for people: the generated form's labels and an
 * answered question's one-line record on its tool card read the same words.
 */
import { isPlainObject, type JsonSchema } from './json-schema.ts'

/**
 * One option of a generated form's select: the value sent and the label shown.
 */
export interface Choice {
  value: string
  label: string
}

/**
 * The property's `title`, or its name spaced out: `flightId` → "Flight id", `homeURL` → "Home URL".
 * A person picks a titled choice, not an id: such a field loses its "id" (`flightId` → "Flight").
 */
export function fieldLabel(name: string, property: JsonSchema): string {
  if (typeof property.title === 'string') return property.title
  const picksByTitle = choicesOf(property)?.some((c) => c.label !== c.value) === true
  return spacedOut(picksByTitle ? name.replace(/(?<=[a-z0-9])(?:Id|[_-]id)$/, '') : name)
}

/** A name as words: a camelCase word is lower-cased ("highChair" → "High chair"); an acronym stays ("homeURL" → "Home URL"). */
function spacedOut(name: string): string {
  const spaced = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])(?=[a-z])/g, (_, before: string, upper: string) => `${before} ${upper.toLowerCase()}`)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

/** An identifier-like value without a title (`economy`, `window_seat`, `extraLegroom`), in words; anything else as it is. */
function valueLabel(value: unknown): string {
  const text = String(value)
  return typeof value === 'string' && /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+|[A-Z][a-z0-9]*)*$/.test(text) ? spacedOut(text) : text
}

/** An enum's choices with their titles (`oneOf`/`anyOf` of `const`s, or `enum` with `enumNames`); untitled ones in words ("economy" → "Economy"). */
export function choicesOf(schema: Record<string, unknown>): Choice[] | undefined {
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined
  if (titled) {
    return titled.filter(isPlainObject).map((o) => ({ value: String(o.const), label: typeof o.title === 'string' ? o.title : valueLabel(o.const) }))
  }
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : []
    return schema.enum.map((v, i) => ({ value: String(v), label: typeof names[i] === 'string' ? names[i] : valueLabel(v) }))
  }
  return undefined
}

const MAX_SUMMARY = 300

/**
 * An answer in one line, for the tool card once its UI is gone: "Flight: SkyHigh SH-792 · Seat: C".
 * Fields in the schema's order, choices by their titles, booleans as Yes/No; bounded in length.
 */
export function summarizeAnswer(schema: JsonSchema, content: unknown): string {
  if (!isPlainObject(content)) return ''
  const properties = isPlainObject(schema.properties) ? schema.properties : {}
  const parts: string[] = []
  for (const [name, raw] of Object.entries(properties)) {
    const value = content[name]
    if (value === undefined || value === null || value === '' || !isPlainObject(raw)) continue
    const choices = choicesOf(raw.type === 'array' && isPlainObject(raw.items) ? raw.items : raw)
    const say = (v: unknown) => (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : (choices?.find((c) => c.value === String(v))?.label ?? String(v)))
    const shown = Array.isArray(value) ? (value.length ? value.map(say).join(', ') : '') : say(value)
    if (shown) parts.push(`${fieldLabel(name, raw)}: ${shown}`)
  }
  const line = parts.join(' · ')
  return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line
}
