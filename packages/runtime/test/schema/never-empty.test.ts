/**
 * `zod-to-json-schema` turns a zod 4 schema into `{}` without a word, and a form built from `{}`
 * asks nothing. This file proves our conversion never yields an empty schema for any schema a
 * tool can declare, and that a value it cannot convert is refused rather than emptied.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../../src/index.ts'
import { analyzeResponseSchema } from '../../src/schema/analyze-elicit-schema.ts'
import { toJsonSchema } from '../../src/schema/zod-to-json-schema.ts'

const corpus: Record<string, z.ZodObject> = {
  string: z.object({ a: z.string() }),
  formats: z.object({ e: z.email(), u: z.url(), d: z.iso.date(), t: z.iso.datetime() }),
  numbers: z.object({ n: z.number().min(0), i: z.int().max(3) }),
  boolean: z.object({ b: z.boolean().default(false) }),
  enums: z.object({ s: z.enum(['a', 'b']), m: z.array(z.enum(['x', 'y'])) }),
  optional: z.object({ o: z.string().optional().describe('maybe') }),
  composed: z.object({ a: z.string() }).extend({ b: z.number() }).pick({ a: true, b: true }),
  empty: z.object({}),
}

function isEmptySchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0
}

describe('no schema converts to an empty {}', () => {
  it.each(Object.entries(corpus))('%s: converted and wire schemas are objects with every property typed', (_, schema) => {
    const { json, wire } = analyzeResponseSchema(schema)
    expect(isEmptySchema(json)).toBe(false)
    expect(wire?.type).toBe('object')
    const shapeKeys = Object.keys(schema.shape)
    expect(Object.keys(wire?.properties ?? {})).toEqual(shapeKeys)
    for (const prop of Object.values(wire?.properties ?? {})) expect(isEmptySchema(prop)).toBe(false)
  })

  it('every tool exposes non-empty parameter and elicitation schemas', () => {
    const tool = createMcpTool('corpus')
      .parameters(z.object({ q: z.string(), nested: z.object({ deep: z.array(z.number()) }) }))
      .elicits(corpus)
      .execute(function* () {
        return null
      })
    expect(tool.jsonSchema.parameters).toMatchObject({ type: 'object', properties: { q: { type: 'string' } } })
    for (const [key, compiled] of Object.entries(tool.compiled)) {
      expect(compiled.wire.type, key).toBe('object')
      expect(Object.keys(compiled.wire.properties)).toEqual(Object.keys(corpus[key]!.shape))
    }
  })

  it('refuses a non-zod-4 value instead of converting it to nothing', () => {
    const zod3Like = { _def: { typeName: 'ZodObject' }, shape: {} }
    expect(() => toJsonSchema(zod3Like as never, 'input')).toThrow(/zod 4/)
    expect(analyzeResponseSchema(zod3Like).violations).toMatchObject([{ rule: 'not-zod-4', severity: 'error' }])
  })

  it('flags a conversion that comes out typeless', () => {
    expect(toJsonSchema(z.any(), 'input').unrepresentable).toEqual([{ pointer: '', zodType: 'any' }])
  })
})
