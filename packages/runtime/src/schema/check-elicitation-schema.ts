/**
 * The one checker for MCP 2025-11-25 form-mode elicitation schemas, used by the runtime when a
 * tool is defined and by the Vite plugin / CLI at build time.
 *
 * It classifies each property once and derives two things from that classification: the
 * violations, and the spec-shaped schema that goes on the wire. Keeping both in one pass means
 * the checker can never accept something the wire form cannot express, or the reverse.
 */
import { ALLOWED_FORMATS, SAFE_INTEGER_BOUNDS, SILENT_KEYWORDS, WIRE_KEYWORDS } from './elicitation-rules.ts'
import { encodePointerToken, inlineLocalRefs, MAX_INLINED_NODES, topLevelProperty } from './inline-refs.ts'
import { exceedsJsonBounds, isPlainObject, type ElicitationWireSchema, type JsonSchema } from './json-schema.ts'
import type { Violation, ViolationRule } from '../errors/violation.ts'

export interface ElicitationAnalysis {
  violations: Violation[]
  /** The schema to send, or undefined when there are errors. */
  wire: ElicitationWireSchema | undefined
}

/** Check a converted JSON Schema against the MCP form-mode rules. */
export function checkElicitationSchema(schema: JsonSchema): Violation[] {
  return analyzeElicitationJsonSchema(schema).violations
}

/** Bounds on a schema handed to the checker (real elicitation schemas are a few levels deep). */
const SCHEMA_BOUNDS = { depth: 64, nodes: 100_000 }

export function analyzeElicitationJsonSchema(input: JsonSchema): ElicitationAnalysis {
  const violations: Violation[] = []
  const excess = exceedsJsonBounds(input, SCHEMA_BOUNDS)
  if (excess) {
    const why = excess === 'depth' ? `nests deeper than ${SCHEMA_BOUNDS.depth} levels (or refers to itself)` : `has more than ${SCHEMA_BOUNDS.nodes.toLocaleString('en')} parts`
    return { violations: [err('too-complex', '', undefined, `the schema ${why}; elicitation fields are flat primitives`)], wire: undefined }
  }
  const { schema, unresolved } = inlineLocalRefs(input)
  for (const u of unresolved) {
    if (u.reason === 'too-large') {
      const message = `its $refs expand to more than ${MAX_INLINED_NODES.toLocaleString('en')} parts; elicitation fields are flat primitives`
      return { violations: [err('too-complex', '', undefined, message)], wire: undefined }
    }
    violations.push({
      severity: 'error',
      rule: 'recursive',
      pointer: u.pointer,
      property: topLevelProperty(u.pointer),
      message:
        u.reason === 'recursive' ? 'a recursive schema cannot be a form field; elicitation fields are flat primitives' : `the reference ${u.ref} points nowhere; inline the schema`,
    })
  }

  if (schema.type !== 'object' || schema.anyOf || schema.oneOf) {
    const isUnion = Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)
    violations.push({
      severity: 'error',
      rule: isUnion ? 'union' : 'not-object',
      pointer: '',
      message: isUnion
        ? 'a union of objects cannot be one form; elicit a single z.object({...}) (use two keys for two shapes)'
        : `an elicitation schema must be z.object({...}) of primitive fields (got ${describeType(schema)})`,
    })
    return { violations, wire: undefined }
  }

  const properties = isPlainObject(schema.properties) ? schema.properties : {}
  const wireProperties: Record<string, JsonSchema> = {}
  for (const [name, prop] of Object.entries(properties)) {
    const pointer = `/properties/${encodePointerToken(name)}`
    const wire = analyzeProperty(prop, pointer, name, violations)
    if (wire) wireProperties[name] = wire
  }

  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    violations.push(err('record', '/additionalProperties', undefined, 'extra keys (z.record / .catchall / .passthrough) cannot be a form; declare each field in z.object({...})'))
  }

  const required = Array.isArray(schema.required) ? schema.required : []
  for (const [i, name] of required.entries()) {
    if (typeof name !== 'string' || !(name in properties)) {
      violations.push(err('invalid-required', `/required/${i}`, undefined, `"required" names ${JSON.stringify(name)}, which is not a property`))
    }
  }

  for (const keyword of Object.keys(schema)) {
    if ((WIRE_KEYWORDS.root as readonly string[]).includes(keyword) || SILENT_KEYWORDS.has(keyword)) continue
    if (keyword === 'additionalProperties') {
      if (schema.additionalProperties === false) violations.push(unknownKeyword('/additionalProperties', undefined, keyword))
      continue
    }
    violations.push(unknownKeyword(`/${encodePointerToken(keyword)}`, undefined, keyword))
  }

  if (violations.some((v) => v.severity === 'error')) return { violations, wire: undefined }

  const wire: ElicitationWireSchema = {
    ...(typeof schema.$schema === 'string' && { $schema: schema.$schema }),
    type: 'object',
    properties: wireProperties,
  }
  const wireRequired = required.filter((n): n is string => typeof n === 'string')
  if (wireRequired.length > 0) wire.required = wireRequired
  return { violations, wire }
}

/** Classify one top-level property; push its violations; return its wire form if valid. */
function analyzeProperty(prop: unknown, pointer: string, name: string, out: Violation[]): JsonSchema | undefined {
  if (!isPlainObject(prop)) {
    out.push(err('no-type', pointer, name, 'the property schema is not an object'))
    return undefined
  }
  const type = prop.type

  if (Array.isArray(type)) {
    const nullable = type.includes('null')
    out.push(nullableOrUnion(nullable, pointer, name, `a field has one type (got ${type.join(' | ')}); pick one, or use z.enum([...]) for choices`))
    return undefined
  }
  if (Array.isArray(prop.anyOf) || Array.isArray(prop.oneOf)) {
    const branches = (prop.oneOf ?? prop.anyOf) as unknown[]
    const hasEnum = Array.isArray(prop.enum)
    // A union of string literals is a single-select enum; titled literals are a titled enum.
    const options = constOptions(branches)
    if (options) {
      if (options.some((o) => typeof o.const !== 'string')) {
        out.push(enumNotString(pointer, name))
        return undefined
      }
      if (
        hasEnum &&
        !sameValues(
          prop.enum as unknown[],
          options.map((o) => o.const),
        )
      ) {
        out.push(err('invalid-enum', pointer, name, 'the titles (oneOf) list other values than the enum; give one title per enum value'))
        return undefined
      }
      const titled = options.every((o) => typeof o.title === 'string')
      const base = pick(prop, COMMON_WIRE, pointer, name, out, ['anyOf', 'oneOf', 'enum', 'type'])
      if (!checkDefault(prop, pointer, name, out, (d) => typeof d === 'string' && options.some((o) => o.const === d))) return undefined
      return titled
        ? { ...base, type: 'string', oneOf: options.map((o) => ({ const: o.const, title: o.title as string })) }
        : { ...base, type: 'string', enum: options.map((o) => o.const) }
    }
    const nullable = branches.some((b) => isPlainObject(b) && b.type === 'null')
    out.push(nullableOrUnion(nullable, pointer, name, 'unions cannot be a form field; use z.enum([...]) for a choice of strings, or split into separate fields'))
    return undefined
  }
  if ('const' in prop) {
    if (typeof prop.const !== 'string') {
      out.push(enumNotString(pointer, name))
      return undefined
    }
    const base = pick(prop, COMMON_WIRE, pointer, name, out, ['const', 'type'])
    return { ...base, type: 'string', enum: [prop.const] }
  }

  switch (type) {
    case 'string':
      return Array.isArray(prop.enum) ? analyzeEnum(prop, pointer, name, out) : analyzeString(prop, pointer, name, out)
    case 'number':
    case 'integer':
      if (Array.isArray(prop.enum)) {
        out.push(enumNotString(pointer, name))
        return undefined
      }
      return analyzeNumber(prop, type, pointer, name, out)
    case 'boolean': {
      if (!checkDefault(prop, pointer, name, out, (d) => typeof d === 'boolean')) return undefined
      return pick(prop, WIRE_KEYWORDS.boolean, pointer, name, out)
    }
    case 'array':
      return analyzeArray(prop, pointer, name, out)
    case 'object': {
      const isRecord = prop.additionalProperties !== undefined && prop.additionalProperties !== false
      out.push(
        isRecord
          ? err('record', pointer, name, 'records (z.record) cannot be a form field; declare each field in the top-level z.object({...})')
          : err(
              'nested-object',
              pointer,
              name,
              'nested objects are not allowed; flatten the fields into the top-level object (e.g. userName, userEmail) or elicit them with a second key',
            ),
      )
      return undefined
    }
    case 'null':
      out.push(err('nullable', pointer, name, 'null is not a form value; remove the field or make it .optional()'))
      return undefined
    case undefined:
      if (Array.isArray(prop.enum)) return analyzeEnum(prop, pointer, name, out)
      out.push(
        err('no-type', pointer, name, 'the field has no type (z.any() / z.unknown() or an unrepresentable zod type); use z.string(), z.number(), z.boolean() or z.enum([...])'),
      )
      return undefined
    default:
      out.push(err('no-type', pointer, name, `type ${JSON.stringify(type)} is not an elicitation field type`))
      return undefined
  }
}

const COMMON_WIRE = ['title', 'description', 'default'] as const

function analyzeString(prop: Record<string, unknown>, pointer: string, name: string, out: Violation[]): JsonSchema | undefined {
  if (!checkDefault(prop, pointer, name, out, (d) => typeof d === 'string')) return undefined
  const format = prop.format
  const allowedFormat = typeof format === 'string' && (ALLOWED_FORMATS as readonly string[]).includes(format)
  const ignore: string[] = []
  if (typeof format === 'string' && !allowedFormat) {
    out.push(
      warn(
        'unsupported-format',
        `${pointer}/format`,
        name,
        `format "${format}" is not one of ${ALLOWED_FORMATS.join(', ')}; clients show a plain text field and may not enforce it (the server still validates with zod)`,
      ),
    )
    ignore.push('format')
  }
  if (typeof prop.pattern === 'string') {
    // zod adds its own regex next to every format it knows; only an author's pattern is news.
    if (typeof format !== 'string') {
      out.push(
        warn(
          'pattern',
          `${pointer}/pattern`,
          name,
          'pattern (.regex()) is not part of MCP elicitation; clients may not enforce it, while the server still validates with zod and refuses a non-matching answer',
        ),
      )
    }
    ignore.push('pattern')
  }
  return pick(prop, WIRE_KEYWORDS.string, pointer, name, out, ignore)
}

function analyzeNumber(prop: Record<string, unknown>, type: 'number' | 'integer', pointer: string, name: string, out: Violation[]): JsonSchema | undefined {
  if (!checkDefault(prop, pointer, name, out, (d) => typeof d === 'number' && (type === 'number' || Number.isInteger(d)))) return undefined
  const wire = pick(prop, WIRE_KEYWORDS.number, pointer, name, out)
  for (const bound of ['minimum', 'maximum'] as const) {
    if (typeof wire[bound] === 'number' && SAFE_INTEGER_BOUNDS.has(wire[bound] as number)) delete wire[bound]
  }
  return wire
}

function analyzeEnum(prop: Record<string, unknown>, pointer: string, name: string, out: Violation[]): JsonSchema | undefined {
  const values = prop.enum as unknown[]
  if (!values.every((v) => typeof v === 'string')) {
    out.push(enumNotString(pointer, name))
    return undefined
  }
  if (values.length === 0) {
    out.push(err('invalid-enum', pointer, name, 'an enum needs at least one value'))
    return undefined
  }
  if (!checkDefault(prop, pointer, name, out, (d) => typeof d === 'string' && values.includes(d))) return undefined
  if (prop.enumNames !== undefined) {
    const names = prop.enumNames
    if (!Array.isArray(names) || names.length !== values.length || !names.every((n) => typeof n === 'string')) {
      out.push(err('invalid-enum', `${pointer}/enumNames`, name, `enumNames must list one string per enum value (${values.length})`))
      return undefined
    }
    return pick(prop, WIRE_KEYWORDS.legacyEnum, pointer, name, out)
  }
  return pick(prop, WIRE_KEYWORDS.enum, pointer, name, out)
}

function analyzeArray(prop: Record<string, unknown>, pointer: string, name: string, out: Violation[]): JsonSchema | undefined {
  if (Array.isArray(prop.prefixItems)) {
    out.push(err('tuple', pointer, name, 'tuples cannot be a form field; use separate fields, or z.array(z.enum([...])) for a multi-select'))
    return undefined
  }
  const items = prop.items
  let wireItems: JsonSchema | undefined
  let values: unknown[] | undefined
  if (isPlainObject(items) && items.type === 'string' && Array.isArray(items.enum)) {
    values = items.enum
    wireItems = { type: 'string', enum: items.enum }
  } else if (isPlainObject(items) && (Array.isArray(items.anyOf) || Array.isArray(items.oneOf))) {
    const options = constOptions((items.anyOf ?? items.oneOf) as unknown[])
    if (options) {
      values = options.map((o) => o.const)
      wireItems = options.every((o) => typeof o.title === 'string')
        ? { anyOf: options.map((o) => ({ const: o.const, title: o.title as string })) }
        : { type: 'string', enum: values }
    }
  }
  if (!wireItems || !values) {
    const ofObjects = isPlainObject(items) && items.type === 'object'
    out.push(
      err(
        'array-not-enum',
        pointer,
        name,
        ofObjects
          ? 'arrays of objects are not allowed; elicitation fields are flat primitives — ask for one item per elicitation, or use z.array(z.enum([...])) to pick several known options'
          : 'arrays are only allowed as multi-select enums; use z.array(z.enum([...]))',
      ),
    )
    return undefined
  }
  if (!values.every((v) => typeof v === 'string')) {
    out.push(enumNotString(`${pointer}/items`, name))
    return undefined
  }
  const ok = checkDefault(prop, pointer, name, out, (d) => Array.isArray(d) && d.every((v) => typeof v === 'string' && values.includes(v)))
  if (!ok) return undefined
  return { ...pick(prop, WIRE_KEYWORDS.multiSelect, pointer, name, out, ['items']), items: wireItems }
}

/**
 * Copy the allowed keywords; warn about the rest (they are dropped from the wire because
 * clients strip or reject them, while the server keeps validating with zod).
 */
function pick(prop: Record<string, unknown>, allowed: readonly string[], pointer: string, name: string, out: Violation[], ignore: readonly string[] = []): JsonSchema {
  const wire: JsonSchema = {}
  for (const [keyword, value] of Object.entries(prop)) {
    if (ignore.includes(keyword) || SILENT_KEYWORDS.has(keyword)) continue
    if (allowed.includes(keyword)) wire[keyword] = value
    else out.push(unknownKeyword(`${pointer}/${encodePointerToken(keyword)}`, name, keyword))
  }
  return wire
}

function checkDefault(prop: Record<string, unknown>, pointer: string, name: string, out: Violation[], valid: (value: unknown) => boolean): boolean {
  if (!('default' in prop) || valid(prop.default)) return true
  out.push(err('invalid-default', `${pointer}/default`, name, `the default ${JSON.stringify(prop.default)} is not a valid value of this field`))
  return false
}

interface ConstOption {
  const: unknown
  title?: unknown
}

/** The branches as `{ const, title? }` options, or undefined if any branch is something else. */
function constOptions(branches: unknown[]): ConstOption[] | undefined {
  const options: ConstOption[] = []
  for (const b of branches) {
    if (!isPlainObject(b) || !('const' in b)) return undefined
    const extra = Object.keys(b).filter((k) => !['const', 'title', 'type', 'description'].includes(k))
    if (extra.length > 0) return undefined
    options.push({ const: b.const, title: b.title })
  }
  return options.length > 0 ? options : undefined
}

function sameValues(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v))
}

function describeType(schema: JsonSchema): string {
  if (Array.isArray(schema.type)) return schema.type.join(' | ')
  if (typeof schema.type === 'string') return schema.type
  return Object.keys(schema).length === 0 ? 'an empty schema {}' : 'a schema without a type'
}

function err(rule: ViolationRule, pointer: string, property: string | undefined, message: string): Violation {
  return { severity: 'error', rule, pointer, ...(property !== undefined && { property }), message }
}

function warn(rule: ViolationRule, pointer: string, property: string | undefined, message: string): Violation {
  return { severity: 'warning', rule, pointer, ...(property !== undefined && { property }), message }
}

function enumNotString(pointer: string, name: string): Violation {
  return err('enum-not-string', pointer, name, 'choices must be strings in MCP elicitation; use z.enum(["1", "2"]) and convert in the tool')
}

function unknownKeyword(pointer: string, property: string | undefined, keyword: string): Violation {
  return warn(
    'unknown-keyword',
    pointer,
    property,
    `"${keyword}" is not part of MCP elicitation schemas; it is left off the wire and clients will not enforce it (the server still validates with zod)`,
  )
}

/** A field that may be null (say to use .optional()) or of several types (say `union`). */
function nullableOrUnion(nullable: boolean, pointer: string, name: string, unionWhy: string): Violation {
  return err(nullable ? 'nullable' : 'union', pointer, name, nullable ? 'null is not a form value; use .optional() instead of .nullable()' : unionWhy)
}
