/**
 * Turns the object given to `.elicits({...})` into checked, converted entries. Runs once per
 * tool definition; collects every violation of every key so one error lists them all.
 */
import { analyzeContextSchema, analyzeResponseSchema } from '../schema/analyze-elicit-schema.ts'
import { isPlainObject, type ElicitationWireSchema } from '../schema/json-schema.ts'
import type { ElicitViolation, Violation } from '../schema/violation.ts'
import { isZod4Schema } from '../schema/zod-to-json-schema.ts'
import type { z } from 'zod'

export interface CompiledElicit {
  key: string
  response: z.ZodObject
  context: z.ZodObject | undefined
  wire: ElicitationWireSchema
}

export interface CompiledElicits {
  entries: Record<string, CompiledElicit>
  errors: ElicitViolation[]
  warnings: ElicitViolation[]
}

export function compileElicits(toolName: string, elicits: Record<string, unknown>): CompiledElicits {
  const entries: Record<string, CompiledElicit> = {}
  const all: ElicitViolation[] = []
  const tag = (key: string, part: ElicitViolation['part']) => (v: Violation): ElicitViolation => ({
    ...v,
    tool: toolName,
    key,
    part,
  })

  for (const [key, definition] of Object.entries(elicits)) {
    const split = splitElicitDefinition(definition)
    const response = analyzeResponseSchema(split.response)
    all.push(...response.violations.map(tag(key, 'response')))
    if (split.context !== undefined) all.push(...analyzeContextSchema(split.context).map(tag(key, 'context')))
    if (response.wire) {
      entries[key] = {
        key,
        response: split.response as z.ZodObject,
        context: split.context as z.ZodObject | undefined,
        wire: response.wire,
      }
    }
  }
  return {
    entries,
    errors: all.filter((v) => v.severity === 'error'),
    warnings: all.filter((v) => v.severity === 'warning'),
  }
}

/** `{ response, context }` or a bare response schema. */
export function splitElicitDefinition(definition: unknown): { response: unknown; context: unknown } {
  if (isPlainObject(definition) && !isZod4Schema(definition) && 'response' in definition) {
    return { response: definition.response, context: definition.context }
  }
  return { response: definition, context: undefined }
}
