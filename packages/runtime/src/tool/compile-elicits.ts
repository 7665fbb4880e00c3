/**
 * Compiles the object given to `.elicits({...})`, once per tool definition, into the one model
 * of each key every other part reads: the bridge (validating context and answers), the MCP
 * server (the requested schema), the browser's plugin executor and chat codec, and the Vite
 * plugin's generator. Nobody splits a definition again. Collects every violation of every key so
 * one error lists them all.
 */
import { analyzeContextSchema, analyzeResponseSchema } from '../schema/analyze-elicit-schema.ts'
import { isPlainObject, type ElicitationWireSchema } from '../schema/json-schema.ts'
import type { ElicitViolation, Violation } from '../errors/violation.ts'
import { isZod4Schema } from '../schema/zod-to-json-schema.ts'
import type { z } from 'zod/v4'

/** One elicitation key, compiled. */
export interface CompiledElicit {
  readonly key: string
  /** What an answer must match (validated on the server, and in the browser before sending). */
  readonly response: z.ZodObject
  /** What the tool's context data must match, when the key declares it. */
  readonly context: z.ZodObject | undefined
  /** The response schema as an MCP form-mode requested schema (no per-call context). */
  readonly wire: ElicitationWireSchema
}

/**
 * A tool's elicitation keys, each compiled once: its response and context schemas and its MCP requested schema.
 */
export type CompiledElicits = Readonly<Record<string, CompiledElicit>>

export interface CompileResult {
  entries: Record<string, CompiledElicit>
  errors: ElicitViolation[]
  warnings: ElicitViolation[]
}

export function compileElicits(toolName: string, elicits: Record<string, unknown>): CompileResult {
  const entries: Record<string, CompiledElicit> = {}
  const all: ElicitViolation[] = []
  const tag =
    (key: string, part: ElicitViolation['part']) =>
    (v: Violation): ElicitViolation => ({
      ...v,
      tool: toolName,
      key,
      part,
    })

  for (const [key, definition] of Object.entries(elicits)) {
    const split = splitDefinition(definition)
    const response = analyzeResponseSchema(split.response)
    all.push(...response.violations.map(tag(key, 'response')))
    if (split.context !== undefined) all.push(...analyzeContextSchema(split.context).map(tag(key, 'context')))
    if (response.wire) {
      entries[key] = Object.freeze({
        key,
        response: split.response as z.ZodObject,
        context: split.context as z.ZodObject | undefined,
        wire: response.wire,
      })
    }
  }
  return {
    entries,
    errors: all.filter((v) => v.severity === 'error'),
    warnings: all.filter((v) => v.severity === 'warning'),
  }
}

/** `{ response, context }` or a bare response schema; the only place that tells them apart. */
function splitDefinition(definition: unknown): { response: unknown; context: unknown } {
  if (isPlainObject(definition) && !isZod4Schema(definition) && 'response' in definition) {
    return { response: definition.response, context: definition.context }
  }
  return { response: definition, context: undefined }
}
