/**
 * How a question reads in a *plain* MCP form: the form a client without this tool's UI (Claude
 * Desktop, the MCP Inspector, an SDK-based host) renders from `requestedSchema` and `message`.
 * There the tool's component is gone, so whatever it offered must be in the form itself:
 *
 *   - `choices` turn a free string field into a titled single select (`oneOf` of `const` /
 *     `title`; `enum` / `enumNames` for clients before 2025-11-25), computed from the question's
 *     context — the flights, the free time slots, the activities;
 *   - `summary` joins the message: a short readable line about the context ("Seats taken: 1A, 2C").
 *
 * Declared once per key with `.plainForm({...})`, so `mcp-bridge check` sees which fields have
 * choices, and warns about a free id-like string that has none (`plainFormWarnings`).
 */
import type { z } from 'zod/v4'
import { isPlainObject } from '../schema/json-schema.ts'
import type { ElicitationWireSchema } from '../schema/json-schema.ts'
import type { ElicitViolation } from '../errors/violation.ts'
import type { CompiledElicit } from './compile-elicits.ts'
import type { ElicitContextOf, ElicitsMap, ResponseSchemaOf } from './elicits.ts'
import { PlainFormError } from '../errors/definition-errors.ts'

/** One choice of a select: what the answer carries, and what a person reads. */
export interface PlainChoice {
  value: string
  title: string
}

/** The string fields of a response (the ones a select can fill). */
export type ChoiceField<R extends z.ZodObject> = {
  [K in keyof z.output<R>]-?: NonNullable<z.output<R>[K]> extends string ? K : never
}[keyof z.output<R>] &
  string

/**
 * How one key's question reads in a plain MCP form (`.plainForm({...})`): titled choices for string fields and a summary of the context, both from the question's context.
 */
export interface PlainFormSpec<R extends z.ZodObject = z.ZodObject, C = Record<string, unknown>> {
  /** Titled choices for string fields, from the question's context. */
  choices?: { [K in ChoiceField<R>]?: (context: C) => readonly PlainChoice[] }
  /** One or two readable sentences about the context, joined to the message for a person. */
  summary?: (context: C) => string
}

/** `.plainForm({...})`: per key of `.elicits()`, typed from the key's response and context. */
export type PlainForms<E extends ElicitsMap> = { [K in keyof E]?: PlainFormSpec<ResponseSchemaOf<E[K]>, ElicitContextOf<E[K]>> }

/** A question's plain form, rendered for one call: what the MCP request adds. */
export interface RenderedPlainForm {
  choices?: Record<string, PlainChoice[]>
  summary?: string
}

/** Most choices one select offers: a person reads them; more belongs in the tool's own UI. */
export const MAX_CHOICES = 200

/** Check a `.plainForm({...})` map against the keys: every key and field exists, every value is a function. */
export function plainFormProblem(forms: unknown, compiled: Readonly<Record<string, CompiledElicit>>): string | undefined {
  if (!isPlainObject(forms)) return '.plainForm() takes an object of keys, e.g. .plainForm({ pickTime: { choices: { time: (context) => [...] } } })'
  for (const [key, spec] of Object.entries(forms)) {
    const entry = compiled[key]
    if (!entry) return `.plainForm() names "${key}", which .elicits() does not declare (declared: ${Object.keys(compiled).join(', ') || 'none'})`
    if (!isPlainObject(spec)) return `.plainForm({ ${key} }) takes { choices?, summary? }`
    const unknown = Object.keys(spec).filter((k) => k !== 'choices' && k !== 'summary')
    if (unknown.length > 0) return `.plainForm({ ${key} }) has no "${unknown[0]}"; it takes choices and summary`
    if (spec.summary !== undefined && typeof spec.summary !== 'function') return `.plainForm({ ${key}: { summary } }) takes a function of the context returning a sentence`
    if (spec.choices === undefined) continue
    if (!isPlainObject(spec.choices)) return `.plainForm({ ${key}: { choices } }) takes an object of fields, e.g. { time: (context) => [...] }`
    for (const [field, choose] of Object.entries(spec.choices)) {
      const property = entry.wire.properties[field]
      if (!property)
        return `.plainForm({ ${key}: { choices } }) names "${field}", which the response of "${key}" does not have (fields: ${Object.keys(entry.wire.properties).join(', ')})`
      if (property.type !== 'string' || 'enum' in property || 'oneOf' in property) {
        return `.plainForm({ ${key}: { choices: { ${field} } } }): only a free string field takes choices ("${field}" is ${'enum' in property || 'oneOf' in property ? 'an enum already' : `a ${String(property.type)}`})`
      }
      if (typeof choose !== 'function') return `.plainForm({ ${key}: { choices: { ${field} } } }) takes a function of the context returning [{ value, title }]`
    }
  }
  return undefined
}

/** Run a key's plain form for one question. A bug in it (a throw, a wrong shape) is a `PlainFormError`. */
export function renderPlainForm(toolName: string, key: string, spec: PlainFormSpec | undefined, context: unknown): RenderedPlainForm | undefined {
  if (!spec) return undefined
  const where = `${toolName}: .plainForm({ ${key} })`
  const run = <T>(what: string, fn: () => T): T => {
    try {
      return fn()
    } catch (error) {
      throw new PlainFormError(`${where}: ${what} threw: ${(error as Error).message}`, { cause: error })
    }
  }
  const rendered: RenderedPlainForm = {}
  for (const [field, choose] of Object.entries(spec.choices ?? {})) {
    const choices = run(`choices.${field}`, () => (choose as (c: unknown) => unknown)(context))
    if (!Array.isArray(choices) || !choices.every((c) => isPlainObject(c) && typeof c.value === 'string' && typeof c.title === 'string')) {
      throw new PlainFormError(`${where}: choices.${field} must return an array of { value: string, title: string }`)
    }
    if (choices.length > MAX_CHOICES) throw new PlainFormError(`${where}: choices.${field} returned ${choices.length} choices; a form offers at most ${MAX_CHOICES}`)
    // Only value and title reach the wire, whatever else the objects hold.
    ;(rendered.choices ??= {})[field] = choices.map((c: PlainChoice) => ({ value: c.value, title: c.title }))
  }
  if (spec.summary) {
    const summary = run('summary', () => spec.summary!(context as never))
    if (typeof summary !== 'string') throw new PlainFormError(`${where}: summary must return a string`)
    if (summary.trim()) rendered.summary = summary.trim()
  }
  return rendered
}

/** The requested schema with each field's choices as a titled select, in the shape the client's revision reads. */
export function withChoices(schema: ElicitationWireSchema, choices: Record<string, PlainChoice[]> | undefined, legacy: boolean): ElicitationWireSchema {
  if (!choices) return schema
  const properties = { ...schema.properties }
  for (const [field, options] of Object.entries(choices)) {
    const property = properties[field]
    if (!property || options.length === 0) continue
    properties[field] = legacy
      ? { ...property, enum: options.map((o) => o.value), enumNames: options.map((o) => o.title) }
      : { ...property, oneOf: options.map((o) => ({ const: o.value, title: o.title })) }
  }
  return { ...schema, properties } as ElicitationWireSchema
}

/**
 * Warnings for fields a person in a plain form could not answer: a free string that names a
 * choice (an id-like name, or a key whose context holds a list), with no `choices` for it.
 */
export function plainFormWarnings(toolName: string, compiled: Readonly<Record<string, CompiledElicit>>, forms: Readonly<Record<string, PlainFormSpec>>): ElicitViolation[] {
  const warnings: ElicitViolation[] = []
  for (const [key, entry] of Object.entries(compiled)) {
    const listed = entry.context ? Object.entries(entry.context.shape).find(([, s]) => (s as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'array')?.[0] : undefined
    for (const [field, property] of Object.entries(entry.wire.properties)) {
      const free = property.type === 'string' && !('enum' in property) && !('oneOf' in property) && !('pattern' in property) && !('format' in property)
      if (!free || forms[key]?.choices?.[field as never]) continue
      const idLike = /(^id|Id|ID|_id)$/.test(field)
      if (!idLike && !listed) continue
      const from = listed ? `context.${listed}` : 'the data the component shows'
      warnings.push({
        severity: 'warning',
        rule: 'plain-form-unanswerable',
        pointer: `/properties/${field}`,
        property: field,
        message:
          `a person answering in a plain MCP form (a client without this tool's UI) sees a free text box here and cannot know a valid value` +
          `${listed ? ` — the choices are in ${from}` : ''}. Offer them: .plainForm({ ${key}: { choices: { ${field}: (context) => ${listed ? `context.${listed}` : 'items'}.map((item) => ({ value: item.id, title: item.name })) } } })`,
        tool: toolName,
        key,
        part: 'response',
      })
    }
  }
  return warnings
}
