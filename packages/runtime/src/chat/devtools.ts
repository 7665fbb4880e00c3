/**
 * What the Vite plugin's dev panel (`/__mcp-bridge/`, in `vite dev` only) does with a chat
 * handler: list its calls with their timelines, answer a waiting question or cancel a call as
 * the developer, and say which store is in use. Answering is the server's own doing — no token —
 * so this is never reachable from a request: the plugin calls it, in dev, from its own routes.
 *
 * An answer given here goes on as a recovered call does (`recover-chat-call.ts`): no response is
 * reading the call, so what it does next — its next question, or its result — is written to its
 * conversation, and a chat page of that conversation, told the new revision, restores it (and
 * asks the model to reply to the result, as after a reload).
 */
import type { CallRegistry } from '../calls/call-registry.ts'
import type { CallActivity } from '../calls/call-activity.ts'
import type { IssueSummary } from '../errors/issues.ts'
import type { ElicitResult } from '../tool/elicits.ts'
import type { CallStore } from '../calls/stores/call-store.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import type { ChatOrigin } from './engine.ts'
import type { ChatModel } from './model.ts'
import { modelSampling } from './model-sampling.ts'

export type DevtoolsOutcome = { ok: true; conversation?: string; revision?: number } | { ok: false; code: string; message: string; issues?: IssueSummary[] }

export interface ChatDevtools {
  /** `memory`, `sqlite` or `redis`. */
  readonly store: string
  /** The calls since the panel first looked (live ones first), with what each did. */
  calls(): CallActivity[]
  /** Answer the question call `callId` waits on, as the person would. */
  answer(callId: string, result: ElicitResult<unknown>): Promise<DevtoolsOutcome>
  /** Abort the call (its `finally` runs; its result says it was cancelled from the dev panel). */
  cancel(callId: string): Promise<DevtoolsOutcome>
}

export function createChatDevtools(deps: { calls: CallRegistry<undefined>; store: CallStore; tools: ReadonlyMap<string, AnyMcpTool>; model: ChatModel }): ChatDevtools {
  const { calls, store } = deps
  const conversationOf = (origin: unknown) => {
    const id = (origin as Partial<ChatOrigin> | undefined)?.conversation
    return typeof id === 'string' ? id : undefined
  }
  const where = async (origin: unknown): Promise<DevtoolsOutcome> => {
    const conversation = conversationOf(origin)
    const head = conversation === undefined ? undefined : await store.getConversationHead(conversation)
    return { ok: true, ...(conversation !== undefined && { conversation }), ...(head && { revision: head.revision }) }
  }
  return {
    store: store.kind,
    calls() {
      calls.recordActivity()
      return calls.activity()
    },
    async answer(callId, result) {
      const resumed = await calls.resume(callId, {
        trusted: true,
        replay: (record) => {
          const tool = deps.tools.get(record.tool)
          return tool && { tool, sampling: modelSampling(deps.model), extra: undefined }
        },
      })
      if (!resumed.ok) return { ok: false, code: resumed.code, message: resumed.message }
      const { call, record } = resumed
      const pending = call.host.pending()
      const question = record.pending
      if (!pending || !question) {
        if (question) await calls.park(call, question)
        return { ok: false, code: 'NO_QUESTION', message: `Tool call ${callId} is not waiting on a question.` }
      }
      const outcome = call.host.respond({ id: pending.id, result })
      if (!outcome.ok) {
        // Refused (the answer does not fit the schema): it waits on the same question, as before.
        await calls.park(call, question)
        return { ok: false, code: outcome.code, message: outcome.message, ...(outcome.issues && { issues: outcome.issues }) }
      }
      // On from here as a recovered call goes on: to its next question or its end, told to its conversation.
      const plan = calls.options.recover?.(record)
      if (plan) await plan.drive(call, { ...record, status: 'running' })
      return where(record.origin)
    },
    async cancel(callId) {
      const record = await store.get(callId)
      if (!record) return { ok: false, code: 'NOT_FOUND', message: `No tool call ${callId} in the ${store.kind} store.` }
      const aborted = await calls.abort(callId, undefined, 'it was cancelled from the dev panel', { trusted: true })
      if (!aborted.ok) return { ok: false, code: aborted.code, message: aborted.message }
      return where(record.origin)
    },
  }
}
