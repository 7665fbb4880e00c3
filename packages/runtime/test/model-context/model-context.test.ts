import { describe, expect, it } from 'vitest'
import { encodeModelContext, extractModelContext, MODEL_CONTEXT_BOUNDARY } from '../../src/index.ts'
import { ModelContextError } from '../../src/errors.ts'

const schema = { type: 'object' as const, properties: { flightId: { type: 'string' } } }

function roundTrip(message: string, context: Record<string, unknown>) {
  const encoded = encodeModelContext({ message, context, schema })
  return { encoded, fromSchema: extractModelContext(encoded), fromMessage: extractModelContext({ message: encoded.message }) }
}

describe('x-model-context', () => {
  it('puts the context in the schema and after the boundary in the message', () => {
    const { encoded } = roundTrip('Select a flight', { flights: [{ id: 'SH-142', price: 299 }] })
    expect(encoded.schema['x-model-context']).toEqual({ flights: [{ id: 'SH-142', price: 299 }] })
    expect(encoded.schema.properties).toEqual(schema.properties)
    expect(encoded.message).toBe(`Select a flight\n\n${MODEL_CONTEXT_BOUNDARY}\n{"flights":[{"id":"SH-142","price":299}]}`)
  })

  it('reads the schema first, then the message, and returns the human part either way', () => {
    const { fromSchema, fromMessage } = roundTrip('Pick one', { a: 1 })
    expect(fromSchema).toEqual({ message: 'Pick one', context: { a: 1 }, source: 'schema' })
    expect(fromMessage).toEqual({ message: 'Pick one', context: { a: 1 }, source: 'message' })
  })

  it('prefers the schema when the two disagree (a client rewrote the message)', () => {
    const encoded = encodeModelContext({ message: 'Hi', context: { v: 'schema' }, schema })
    const tampered = { ...encoded, message: encoded.message.replace('"schema"', '"message"') }
    expect(extractModelContext(tampered).context).toEqual({ v: 'schema' })
  })

  it('accepts an ElicitRequest-shaped input ({ schema: { json } }) and a raw MCP request', () => {
    const encoded = encodeModelContext({ message: 'M', context: { k: true }, schema })
    expect(extractModelContext({ message: encoded.message, schema: { json: encoded.schema } }).source).toBe('schema')
    expect(extractModelContext({ message: encoded.message, requestedSchema: encoded.schema }).source).toBe('schema')
  })

  it('round-trips unicode', () => {
    const context = { city: 'Zürich', emoji: '✈️🧳', rtl: 'שלום', nul: 'a\u0000b', newline: 'x\ny' }
    const { fromSchema, fromMessage } = roundTrip('Où allez-vous ? 🌍\nDeuxième ligne', context)
    expect(fromMessage).toEqual({ message: 'Où allez-vous ? 🌍\nDeuxième ligne', context, source: 'message' })
    expect(fromSchema.context).toEqual(context)
  })

  it('round-trips a message that itself contains the boundary text', () => {
    const message = `Docs say:\n${MODEL_CONTEXT_BOUNDARY}\n{"fake":true}\nend`
    const { fromMessage } = roundTrip(message, { real: 1 })
    expect(fromMessage).toEqual({ message, context: { real: 1 }, source: 'message' })
  })

  it('round-trips a message ending in a fake section even with an empty context', () => {
    const message = `Example:\n${MODEL_CONTEXT_BOUNDARY}\n{"fake":true}`
    const { fromMessage } = roundTrip(message, {})
    expect(fromMessage).toEqual({ message, context: {}, source: 'message' })
  })

  it('adds nothing for an empty context', () => {
    const { encoded, fromMessage } = roundTrip('Just a question', {})
    expect(encoded.message).toBe('Just a question')
    expect(encoded.schema).not.toHaveProperty('x-model-context')
    expect(fromMessage).toEqual({ message: 'Just a question', context: {}, source: 'none' })
  })

  it('keeps trailing newlines and empty messages intact', () => {
    expect(roundTrip('ends with newline\n', { a: 1 }).fromMessage.message).toBe('ends with newline\n')
    expect(roundTrip('', { a: 1 }).fromMessage).toEqual({ message: '', context: { a: 1 }, source: 'message' })
  })

  it('round-trips a 1 MB context', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ id: `row-${i}`, text: 'x'.repeat(80), n: i }))
    const { encoded, fromMessage, fromSchema } = roundTrip('Big', { rows })
    expect(encoded.message.length).toBeGreaterThan(1_000_000)
    expect(fromMessage.context).toEqual({ rows })
    expect(fromSchema.context).toEqual({ rows })
  })

  it.each([
    ['a function', { pick: { onClick: () => 1 } }, 'pick.onClick', /function/],
    ['a BigInt', { flights: [{ price: 10n }] }, 'flights[0].price', /BigInt/],
    ['undefined in an array', { seats: ['1A', undefined] }, 'seats[1]', /undefined/],
    ['a symbol', { s: Symbol('x') }, 's', /symbol/],
    ['NaN', { n: Number.NaN }, 'n', /NaN/],
    ['a Date', { when: new Date(0) }, 'when', /toISOString/],
    ['a Map', { m: new Map() }, 'm', /Map/],
  ])('rejects %s, naming the key', (_, context, path, reason) => {
    const run = () => encodeModelContext({ message: 'x', context, schema })
    expect(run).toThrow(ModelContextError)
    expect(run).toThrow(reason)
    try {
      run()
    } catch (e) {
      expect((e as ModelContextError).path).toBe(path)
      expect((e as Error).message).toContain(`at ${path} `)
    }
  })

  it('rejects cycles', () => {
    const a: Record<string, unknown> = { name: 'a' }
    a.self = a
    expect(() => encodeModelContext({ message: 'x', context: { a }, schema })).toThrow(/a\.self refers back to itself/)
  })

  it('lets undefined object properties be absent, as JSON does', () => {
    const { fromSchema } = roundTrip('x', { a: 1, b: undefined })
    expect(fromSchema.context).toEqual({ a: 1 })
  })

  it('cannot pollute prototypes through __proto__ / constructor keys', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted2":true}}}') as Record<string, unknown>
    const { fromSchema, fromMessage } = roundTrip('x', hostile)
    for (const out of [fromSchema.context, fromMessage.context]) {
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
      expect(Object.hasOwn(out, '__proto__')).toBe(true)
      expect((out as { polluted?: unknown }).polluted).toBeUndefined()
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
    expect(({} as { polluted2?: unknown }).polluted2).toBeUndefined()
  })

  it('ignores a malformed section and keeps the message whole', () => {
    const message = `Hi\n\n${MODEL_CONTEXT_BOUNDARY}\n{not json`
    expect(extractModelContext({ message })).toEqual({ message, context: {}, source: 'none' })
  })

  it('refuses context nested deeper than 64 levels with a ModelContextError naming where, never a RangeError', () => {
    let deep: Record<string, unknown> = { leaf: 1 }
    for (let i = 0; i < 5_000; i++) deep = { a: deep }
    const run = () => encodeModelContext({ message: 'x', context: deep, schema: {} })
    expect(run).toThrow(ModelContextError)
    expect(run).toThrow(/nests deeper than 64 levels; flatten it/)
    let ok: Record<string, unknown> = { leaf: 1 }
    for (let i = 0; i < 60; i++) ok = { a: ok }
    expect(() => encodeModelContext({ message: 'x', context: ok, schema: {} })).not.toThrow()
  })
})
