/**
 * One question a tool call asks: the same shape on the server (the bridge builds it from the
 * key's compiled model), in the browser (the chat codec rebuilds it from the wire with the same
 * model) and in `runMcpTool`. A plugin handler reads `context` typed, and `params` / `handoff`
 * to show the call's arguments and a handoff tool's `before()` data.
 */
import type { z } from 'zod/v4'
import type { ElicitationWireSchema } from '../schema/json-schema.ts'
import type { UntypedContext } from './elicits.ts'
import type { RenderedPlainForm } from './plain-form.ts'

/**
 * One question of a tool call as a plugin handler (and `runMcpTool`) sees it: its id and key, the message, the response schema (zod and MCP), the typed context, the call's parameters and a handoff tool's `before()` value.
 */
export interface ElicitRequest<K extends string = string, R extends z.ZodObject = z.ZodObject, C = UntypedContext, P = unknown> {
  /** Names this question within its tool call: `<callId>#<n>` for the call's n-th question. */
  id: string
  key: K
  /** The human-readable question. */
  message: string
  schema: {
    /** The key's response schema. */
    zod: R
    /** The same as an MCP requested schema (form mode). */
    json: ElicitationWireSchema
  }
  /** The data the tool passed along (validated with the key's context schema when it declares one). */
  context: C
  /** The tool call's validated arguments (typed from the tool's parameters in plugin handlers). */
  params: P
  /** A handoff tool's `before()` value; `undefined` for `.execute()` tools. */
  handoff: unknown
  /** How it reads in a plain MCP form (the key's `.plainForm()`, run on this context), if declared. */
  plain?: RenderedPlainForm
}

/** The id of the `seq`-th question of a call. */
export function elicitId(callId: string, seq: number): string {
  return `${callId}#${seq}`
}
