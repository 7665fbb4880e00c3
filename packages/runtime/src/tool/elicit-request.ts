/**
 * What a UI (or an MCP client) receives when a tool asks the user something: the structured id,
 * the same fields flat for convenience, the human message, both schemas and the context data.
 */
import type { z } from 'zod'
import type { ElicitationWireSchema } from '../schema/json-schema.ts'
import type { ElicitId, UntypedContext } from './elicits.ts'

export interface ElicitRequest<K extends string = string, R extends z.ZodObject = z.ZodObject, C = UntypedContext>
  extends ElicitId<K> {
  id: ElicitId<K>
  /** The human-readable question (without the encoded context section). */
  message: string
  schema: {
    zod: R
    /** MCP requested schema, with the context under `x-model-context` when there is any. */
    json: ElicitationWireSchema
  }
  context: C
  /** The tool call's validated parameters. */
  params?: unknown
  /** The handoff value from `before`, for handoff tools. */
  handoff?: unknown
}

/** Two ids name the same elicitation. */
export function sameElicitId(a: ElicitId, b: ElicitId): boolean {
  return a.toolName === b.toolName && a.key === b.key && a.callId === b.callId && a.seq === b.seq
}

/** `book_flight:call_1:pickFlight#2` — for logs and error messages. */
export function formatElicitId(id: ElicitId): string {
  return `${id.toolName}:${id.callId}:${id.key}#${id.seq}`
}
