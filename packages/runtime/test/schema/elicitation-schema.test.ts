/**
 * The elicitation-schema rules, exercised on real zod 4 schemas through the same entry point
 * the builder and the Vite plugin use. Each case names the kind and what must come out.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type Violation } from '../../src/index.ts'
import { analyzeResponseSchema } from '../../src/schema/analyze-elicit-schema.ts'
import { checkElicitationSchema } from '../../src/schema/check-elicitation-schema.ts'

const errors = (vs: Violation[]) => vs.filter((v) => v.severity === 'error')
const warnings = (vs: Violation[]) => vs.filter((v) => v.severity === 'warning')

interface Accepted {
  name: string
  schema: z.ZodObject
  /** The property's wire form (spec keywords only). */
  wire: Record<string, unknown>
  warn?: string[]
}

const accepted: Accepted[] = [
  { name: 'plain string', schema: z.object({ v: z.string() }), wire: { v: { type: 'string' } } },
  {
    name: 'string with min/max length',
    schema: z.object({ v: z.string().min(2).max(40) }),
    wire: { v: { type: 'string', minLength: 2, maxLength: 40 } },
  },
  { name: 'email (zod 4 z.email)', schema: z.object({ v: z.email() }), wire: { v: { type: 'string', format: 'email' } } },
  { name: 'email (string().email())', schema: z.object({ v: z.string().email() }), wire: { v: { type: 'string', format: 'email' } } },
  { name: 'uri (z.url)', schema: z.object({ v: z.url() }), wire: { v: { type: 'string', format: 'uri' } } },
  { name: 'date (z.iso.date)', schema: z.object({ v: z.iso.date() }), wire: { v: { type: 'string', format: 'date' } } },
  {
    name: 'date-time (z.iso.datetime)',
    schema: z.object({ v: z.iso.datetime() }),
    wire: { v: { type: 'string', format: 'date-time' } },
  },
  {
    name: 'number with bounds',
    schema: z.object({ v: z.number().min(1).max(9) }),
    wire: { v: { type: 'number', minimum: 1, maximum: 9 } },
  },
  { name: 'integer (implicit safe bounds dropped)', schema: z.object({ v: z.int() }), wire: { v: { type: 'integer' } } },
  {
    name: 'integer with bounds',
    schema: z.object({ v: z.int().min(0).max(10) }),
    wire: { v: { type: 'integer', minimum: 0, maximum: 10 } },
  },
  { name: 'boolean', schema: z.object({ v: z.boolean() }), wire: { v: { type: 'boolean' } } },
  {
    name: 'boolean with default',
    schema: z.object({ v: z.boolean().default(true) }),
    wire: { v: { type: 'boolean', default: true } },
  },
  {
    name: 'single-select enum',
    schema: z.object({ v: z.enum(['window', 'aisle']) }),
    wire: { v: { type: 'string', enum: ['window', 'aisle'] } },
  },
  {
    name: 'titled single-select (oneOf via meta)',
    schema: z.object({
      v: z.enum(['w', 'a']).meta({
        oneOf: [
          { const: 'w', title: 'Window' },
          { const: 'a', title: 'Aisle' },
        ],
      }),
    }),
    wire: {
      v: {
        type: 'string',
        oneOf: [
          { const: 'w', title: 'Window' },
          { const: 'a', title: 'Aisle' },
        ],
      },
    },
  },
  {
    name: 'titled single-select (union of titled literals)',
    schema: z.object({ v: z.union([z.literal('w').meta({ title: 'Window' }), z.literal('a').meta({ title: 'Aisle' })]) }),
    wire: {
      v: {
        type: 'string',
        oneOf: [
          { const: 'w', title: 'Window' },
          { const: 'a', title: 'Aisle' },
        ],
      },
    },
  },
  {
    name: 'union of string literals becomes an enum',
    schema: z.object({ v: z.union([z.literal('a'), z.literal('b')]) }),
    wire: { v: { type: 'string', enum: ['a', 'b'] } },
  },
  { name: 'single literal', schema: z.object({ v: z.literal('yes') }), wire: { v: { type: 'string', enum: ['yes'] } } },
  {
    name: 'legacy enumNames',
    schema: z.object({ v: z.enum(['a', 'b']).meta({ enumNames: ['Alpha', 'Beta'] }) }),
    wire: { v: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] } },
  },
  {
    name: 'multi-select enum with min/max items',
    schema: z.object({
      v: z
        .array(z.enum(['a', 'b', 'c']))
        .min(1)
        .max(2),
    }),
    wire: { v: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] } } },
  },
  {
    name: 'titled multi-select (anyOf items)',
    schema: z.object({ v: z.array(z.union([z.literal('a').meta({ title: 'A' }), z.literal('b').meta({ title: 'B' })])) }),
    wire: {
      v: {
        type: 'array',
        items: {
          anyOf: [
            { const: 'a', title: 'A' },
            { const: 'b', title: 'B' },
          ],
        },
      },
    },
  },
  {
    name: 'multi-select with default',
    schema: z.object({ v: z.array(z.enum(['p', 'q'])).default(['p']) }),
    wire: { v: { type: 'array', default: ['p'], items: { type: 'string', enum: ['p', 'q'] } } },
  },
  {
    name: 'optional, default, describe and title',
    schema: z.object({ v: z.string().optional().describe('Nickname').meta({ title: 'Nick' }) }),
    wire: { v: { type: 'string', description: 'Nickname', title: 'Nick' } },
  },
  {
    name: 'number default',
    schema: z.object({ v: z.number().default(3) }),
    wire: { v: { type: 'number', default: 3 } },
  },
  {
    name: 'regex pattern: accepted with a warning, dropped from the wire',
    schema: z.object({ v: z.string().regex(/^#[0-9a-fA-F]{6}$/) }),
    wire: { v: { type: 'string' } },
    warn: ['pattern'],
  },
  {
    name: 'uuid format: outside the spec list, warning',
    schema: z.object({ v: z.uuid() }),
    wire: { v: { type: 'string' } },
    warn: ['unsupported-format'],
  },
  {
    name: 'exclusive bounds (.gt/.lt): warning, dropped',
    schema: z.object({ v: z.number().gt(0).lt(1) }),
    wire: { v: { type: 'number' } },
    warn: ['unknown-keyword', 'unknown-keyword'],
  },
  {
    name: 'strict object: additionalProperties false is a warning',
    schema: z.strictObject({ v: z.string() }),
    wire: { v: { type: 'string' } },
    warn: ['unknown-keyword'],
  },
  {
    name: 'shared schema with an id ($ref inlined)',
    schema: z.object({ v: z.string().meta({ id: 'SharedName' }), w: z.string().meta({ id: 'SharedName2' }) }),
    wire: { v: { type: 'string' }, w: { type: 'string' } },
  },
]

describe('accepted elicitation schemas', () => {
  it.each(accepted)('$name', ({ schema, wire, warn }) => {
    const result = analyzeResponseSchema(schema)
    expect(errors(result.violations)).toEqual([])
    expect(warnings(result.violations).map((v) => v.rule)).toEqual(warn ?? [])
    expect(result.wire?.type).toBe('object')
    expect(result.wire?.properties).toEqual(wire)
  })

  it('keeps the required list and $schema, and nothing else at the top', () => {
    const result = analyzeResponseSchema(z.object({ a: z.string(), b: z.string().optional() }))
    expect(result.wire).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['a'],
    })
  })

  it('accepts the empty object (an elicitation with no fields, e.g. a plain confirmation)', () => {
    const result = analyzeResponseSchema(z.object({}))
    expect(result.violations).toEqual([])
    expect(result.wire).toMatchObject({ type: 'object', properties: {} })
  })
})

interface Rejected {
  name: string
  schema: unknown
  rule: Violation['rule']
  property?: string
  /** A fragment of the fix the message must name. */
  says: string
}

const rejected: Rejected[] = [
  {
    name: 'nested object',
    schema: z.object({ user: z.object({ name: z.string() }) }),
    rule: 'nested-object',
    property: 'user',
    says: 'flatten',
  },
  {
    name: 'array of objects',
    schema: z.object({ tags: z.array(z.object({ n: z.string() })) }),
    rule: 'array-not-enum',
    property: 'tags',
    says: 'arrays of objects are not allowed',
  },
  {
    name: 'array of free strings',
    schema: z.object({ tags: z.array(z.string()) }),
    rule: 'array-not-enum',
    property: 'tags',
    says: 'arrays are only allowed as multi-select enums; use z.array(z.enum([...]))',
  },
  {
    name: 'union of types',
    schema: z.object({ v: z.union([z.string(), z.number()]) }),
    rule: 'union',
    property: 'v',
    says: 'one type',
  },
  {
    name: 'union of objects at a property',
    schema: z.object({ v: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]) }),
    rule: 'union',
    property: 'v',
    says: 'unions cannot be a form field',
  },
  { name: 'record', schema: z.object({ r: z.record(z.string(), z.string()) }), rule: 'record', property: 'r', says: 'z.record' },
  {
    name: 'catchall at the top',
    schema: z.object({ a: z.string() }).catchall(z.string()),
    rule: 'record',
    says: 'declare each field',
  },
  { name: 'tuple', schema: z.object({ t: z.tuple([z.string(), z.number()]) }), rule: 'tuple', property: 't', says: 'tuples' },
  {
    name: 'transform',
    schema: z.object({ n: z.string().transform((s) => s.length) }),
    rule: 'transform',
    property: 'n',
    says: 'transform it inside the tool',
  },
  { name: 'z.date()', schema: z.object({ d: z.date() }), rule: 'unrepresentable', property: 'd', says: 'z.iso.date()' },
  { name: 'z.bigint()', schema: z.object({ b: z.bigint() }), rule: 'unrepresentable', property: 'b', says: 'z.int()' },
  { name: 'nullable', schema: z.object({ v: z.string().nullable() }), rule: 'nullable', property: 'v', says: '.optional()' },
  { name: 'nullable enum', schema: z.object({ v: z.enum(['a']).nullable() }), rule: 'nullable', property: 'v', says: '.optional()' },
  { name: 'z.any()', schema: z.object({ v: z.any() }), rule: 'no-type', property: 'v', says: 'z.any()' },
  {
    name: 'numeric literal choices',
    schema: z.object({ v: z.union([z.literal(1), z.literal(2)]) }),
    rule: 'enum-not-string',
    property: 'v',
    says: 'choices must be strings',
  },
  {
    name: 'multi-select default outside the enum',
    schema: z.object({ v: z.array(z.enum(['a', 'b'])).default(['z' as 'a']) }),
    rule: 'invalid-default',
    property: 'v',
    says: 'not a valid value',
  },
  { name: 'top-level non-object', schema: z.string(), rule: 'not-object', says: 'z.object' },
  { name: 'top-level union', schema: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]), rule: 'not-object', says: 'z.object' },
  { name: 'a zod 3 / non-zod value', schema: { type: 'object', properties: {} }, rule: 'not-zod-4', says: 'zod 4' },
]

describe('rejected elicitation schemas', () => {
  it.each(rejected)('$name', ({ schema, rule, property, says }) => {
    const result = analyzeResponseSchema(schema)
    const errs = errors(result.violations)
    expect(errs.length).toBeGreaterThan(0)
    expect(result.wire).toBeUndefined()
    const match = errs.find((v) => v.rule === rule)
    expect(match, JSON.stringify(errs)).toBeDefined()
    if (property !== undefined) expect(match?.property).toBe(property)
    expect(match?.message).toContain(says)
  })

  it('reports every bad property at once, each at its own pointer', () => {
    const result = analyzeResponseSchema(z.object({ ok: z.string(), user: z.object({ n: z.string() }), when: z.date(), tags: z.array(z.string()) }))
    expect(errors(result.violations).map((v) => [v.property, v.rule, v.pointer])).toEqual([
      ['when', 'unrepresentable', '/properties/when'],
      ['user', 'nested-object', '/properties/user'],
      ['tags', 'array-not-enum', '/properties/tags'],
    ])
  })

  it('reports a recursive schema instead of expanding it forever', () => {
    const node: z.ZodObject = z.object({
      name: z.string(),
      get children() {
        return z.array(node)
      },
    })
    const errs = errors(analyzeResponseSchema(node).violations)
    expect(errs.some((v) => v.property === 'children')).toBe(true)
  })
})

describe('checkElicitationSchema on raw JSON Schema', () => {
  it('accepts a hand-written spec schema with every kind', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', minLength: 1, maxLength: 50, default: 'x' },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
        agree: { type: 'boolean', default: false },
        size: { type: 'string', enum: ['s', 'm'] },
        color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] },
        legacy: { type: 'string', enum: ['a'], enumNames: ['A'] },
        many: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1 },
        manyTitled: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] } },
      },
      required: ['name'],
    }
    expect(checkElicitationSchema(schema)).toEqual([])
  })

  it('flags a required name that is not a property', () => {
    const vs = checkElicitationSchema({ type: 'object', properties: {}, required: ['ghost'] })
    expect(vs).toMatchObject([{ rule: 'invalid-required', severity: 'error' }])
  })

  it('flags enumNames of the wrong length', () => {
    const vs = checkElicitationSchema({ type: 'object', properties: { a: { type: 'string', enum: ['a', 'b'], enumNames: ['A'] } } })
    expect(vs).toMatchObject([{ rule: 'invalid-enum', property: 'a' }])
  })

  it('treats an empty schema {} as not an object (the zod-to-json-schema failure mode)', () => {
    expect(checkElicitationSchema({})).toMatchObject([{ rule: 'not-object', severity: 'error' }])
  })

  it('reports hostile schemas as a violation, never a RangeError: cycles, 10,000 levels, $ref fan-out', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} }
    ;(cyclic.properties as Record<string, unknown>).self = cyclic
    expect(checkElicitationSchema(cyclic)).toMatchObject([{ rule: 'too-complex', message: expect.stringMatching(/nests deeper than 64 levels \(or refers to itself\)/) }])

    let deep: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { a: deep } }
    expect(checkElicitationSchema(deep)).toMatchObject([{ rule: 'too-complex', severity: 'error' }])

    // d0 uses d1 twice, d1 uses d2 twice, ... : 2^20 copies if expanded naively.
    const $defs: Record<string, unknown> = { d20: { type: 'string' } }
    for (let i = 0; i < 20; i++) $defs[`d${i}`] = { type: 'object', properties: { l: { $ref: `#/$defs/d${i + 1}` }, r: { $ref: `#/$defs/d${i + 1}` } } }
    const fanOut = { type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs }
    expect(checkElicitationSchema(fanOut)).toMatchObject([{ rule: 'too-complex', message: expect.stringMatching(/\$refs expand to more than 10,000 parts/) }])
  })
})
