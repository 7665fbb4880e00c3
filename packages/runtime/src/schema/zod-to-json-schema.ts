/**
 * zod 4 -> JSON Schema with zod's own `z.toJSONSchema`. Two facts shape this file:
 * - `zod-to-json-schema` silently returns `{}` for a zod 4 schema, so we never use it, and we
 *   refuse anything that is not a zod 4 schema instead of converting it to nothing;
 * - zod throws on the first unrepresentable node (z.date(), a transform's output...). We ask it
 *   to carry on (`unrepresentable: 'any'`) and record where each such node is, so a report can
 *   point at every offending property at once.
 */
import { z } from 'zod/v4'
import { encodePointerToken } from './inline-refs.ts'
import type { JsonSchema } from './json-schema.ts'
import { NotZod4Error } from '../errors/definition-errors.ts'

export type ZodSchema = z.ZodType
export type ZodObjectSchema = z.ZodObject

const UNREPRESENTABLE = new Set(['date', 'bigint', 'symbol', 'undefined', 'void', 'map', 'set', 'function', 'nan', 'custom', 'promise', 'transform'])

export interface UnrepresentableNode {
  pointer: string
  /** zod's `def.type` of the node, e.g. `date` or `transform`. */
  zodType: string
}

export interface JsonSchemaConversion {
  json: JsonSchema
  unrepresentable: UnrepresentableNode[]
}

/** True for schemas made with zod 4 (`zod` or `zod/mini`); false for zod 3 and non-schemas. */
export function isZod4Schema(value: unknown): value is ZodSchema {
  if (typeof value !== 'object' || value === null) return false
  const internals = (value as { _zod?: { def?: { type?: unknown } } })._zod
  return typeof internals?.def?.type === 'string'
}

/** zod's `def.type` (`object`, `string`, `pipe`, ...). */
export function zodTypeName(schema: ZodSchema): string {
  return (schema as unknown as { _zod: { def: { type: string } } })._zod.def.type
}

export function isZodObject(value: unknown): value is ZodObjectSchema {
  return isZod4Schema(value) && zodTypeName(value) === 'object'
}

/**
 * Convert a zod 4 schema. `io: 'input'` describes what a client sends (defaults not required);
 * `io: 'output'` what the tool receives, and is where transforms show up.
 */
export function toJsonSchema(schema: ZodSchema, io: 'input' | 'output'): JsonSchemaConversion {
  if (!isZod4Schema(schema)) {
    throw new NotZod4Error(
      'expected a zod 4 schema (import { z } from "zod" with zod 4.6+ installed); zod 3 schemas are not supported — to upgrade an app on zod 3, see "Apps on zod 3" in the docs (Getting started)',
    )
  }
  const unrepresentable: UnrepresentableNode[] = []
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      const type = (ctx.zodSchema as unknown as { _zod: { def: { type: string } } })._zod.def.type
      if (UNREPRESENTABLE.has(type)) {
        unrepresentable.push({ pointer: ctx.path.map((p) => `/${encodePointerToken(String(p))}`).join(''), zodType: type })
      }
    },
  }) as JsonSchema
  if (Object.keys(json).length === 0 || (json.type === undefined && json.anyOf === undefined && json.$ref === undefined)) {
    // A converter that yields nothing is the failure mode we guard against everywhere.
    unrepresentable.push({ pointer: '', zodType: zodTypeName(schema) })
  }
  return { json, unrepresentable }
}
