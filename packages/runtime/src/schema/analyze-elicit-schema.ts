/**
 * Everything the runtime and the build know about one `.elicits({...})` entry, from the real
 * zod objects: the converted JSON Schema, the wire schema, and every violation with the
 * property it belongs to. The Vite plugin calls this on schemas loaded from user modules.
 */
import { analyzeElicitationJsonSchema } from './check-elicitation-schema.ts'
import { UNREPRESENTABLE_FIXES } from './elicitation-rules.ts'
import { topLevelProperty } from './inline-refs.ts'
import type { ElicitationWireSchema, JsonSchema } from './json-schema.ts'
import type { Violation } from '../errors/violation.ts'
import { isZod4Schema, isZodObject, toJsonSchema, zodTypeName } from './zod-to-json-schema.ts'

export interface ElicitSchemaAnalysis {
  /** zod's JSON Schema (io: input), before normalisation; undefined if conversion was impossible. */
  json: JsonSchema | undefined
  /** The spec-shaped schema to send; undefined when there are errors. */
  wire: ElicitationWireSchema | undefined
  violations: Violation[]
}

/** Keys of `ctx.elicit(key, { message, mode, ...context })` that are options, not context. */
export const RESERVED_CONTEXT_KEYS = ['message', 'mode'] as const

export function analyzeResponseSchema(schema: unknown): ElicitSchemaAnalysis {
  const shapeError = zodObjectError(schema, 'the response schema')
  if (shapeError) return { json: undefined, wire: undefined, violations: [shapeError] }

  const input = toJsonSchema(schema as never, 'input')
  const output = toJsonSchema(schema as never, 'output')
  const violations = unrepresentableViolations([...input.unrepresentable, ...output.unrepresentable.filter((n) => n.zodType === 'transform')])
  const covered = violations.map((v) => v.pointer)
  const analysis = analyzeElicitationJsonSchema(input.json)
  // A node zod could not represent also shows up as a typeless `{}`; report it once, with its cause.
  for (const v of analysis.violations) {
    if (!covered.some((p) => p !== '' && (v.pointer === p || v.pointer.startsWith(`${p}/`)))) violations.push(v)
  }
  const hasErrors = violations.some((v) => v.severity === 'error')
  return { json: input.json, wire: hasErrors ? undefined : analysis.wire, violations }
}

/**
 * A context schema describes the extra props of `ctx.elicit`; its parsed output travels as
 * JSON to the client, so it must be an object whose output has a JSON form.
 */
export function analyzeContextSchema(schema: unknown): Violation[] {
  const shapeError = zodObjectError(schema, 'the context schema')
  if (shapeError) return [shapeError]
  const violations = unrepresentableViolations(toJsonSchema(schema as never, 'output').unrepresentable)
  const shape = (schema as { shape: Record<string, unknown> }).shape
  for (const key of RESERVED_CONTEXT_KEYS) {
    if (key in shape) {
      violations.push({
        severity: 'error',
        rule: 'reserved-context-key',
        pointer: `/properties/${key}`,
        property: key,
        message: `"${key}" is an option of ctx.elicit, not context data; rename the context field`,
      })
    }
  }
  return violations
}

function zodObjectError(schema: unknown, what: string): Violation | undefined {
  if (schema === undefined) {
    return {
      severity: 'error',
      rule: 'not-zod-4',
      pointer: '',
      // The usual cause is not a typo but a cycle: two modules importing each other, so the
      // imported schema is not defined yet when this tool is created.
      message: `${what} is undefined when the tool is defined; if it is imported, check for a circular import (a module that imports this one back), or define it before the tool`,
    }
  }
  if (!isZod4Schema(schema)) {
    return {
      severity: 'error',
      rule: 'not-zod-4',
      pointer: '',
      message: `${what} is not a zod 4 schema; import { z } from "zod" (v4) — zod 3 schemas convert to an empty schema`,
    }
  }
  if (!isZodObject(schema)) {
    return {
      severity: 'error',
      rule: 'not-object',
      pointer: '',
      message: `${what} must be z.object({...}) (got z.${zodTypeName(schema)}())`,
    }
  }
  return undefined
}

function unrepresentableViolations(nodes: Array<{ pointer: string; zodType: string }>): Violation[] {
  const seen = new Set<string>()
  const out: Violation[] = []
  for (const node of nodes) {
    const id = `${node.pointer}:${node.zodType}`
    if (seen.has(id)) continue
    seen.add(id)
    const property = topLevelProperty(node.pointer)
    out.push({
      severity: 'error',
      rule: node.zodType === 'transform' ? 'transform' : 'unrepresentable',
      pointer: node.pointer,
      ...(property !== undefined && { property }),
      message: UNREPRESENTABLE_FIXES[node.zodType] ?? `z.${node.zodType}() has no JSON Schema; use a primitive field`,
    })
  }
  return out
}
