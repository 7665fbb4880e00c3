/**
 * A chat call whose server stopped while it ran, carried on by this server (see `CallRegistry`'s
 * recovery): its journal is replayed — recorded steps are not run again, an unrecorded one runs
 * again with the same idempotency key — and it runs to its next stop, as a turn would run it. No
 * response is reading it, so what it reports goes to the conversation it belongs to: the question
 * it asks next (stored, so any instance takes the answer), or its result. A reload, or the client
 * following a running call, finds it there.
 */
import type { CallRegistry } from '../calls/call-registry.ts'
import type { RecoveryPlan } from '../calls/registry-types.ts'
import type { ErrorLog } from '../errors/client-errors.ts'
import type { CallRecord } from '../calls/stores/call-store.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import type { McpMessage } from '../sampling/content.ts'
import type { ConversationLog } from './conversation-log.ts'
import { settle, type ChatLimits, type ChatOrigin, type EngineContext } from './engine.ts'
import type { ChatModel } from './model.ts'
import { modelSampling } from './model-sampling.ts'

export interface ChatRecoveryDeps {
  tools: ReadonlyMap<string, AnyMcpTool>
  model: ChatModel
  limits: ChatLimits
  conversations: ConversationLog
  /** The registry the call is recovered into (set once the registry exists). */
  calls: () => CallRegistry<undefined>
  logger?: ErrorLog
}

export function chatRecovery(deps: ChatRecoveryDeps): (record: CallRecord) => RecoveryPlan<undefined> | undefined {
  return (record) => {
    const tool = deps.tools.get(record.tool)
    if (!tool) return undefined
    return {
      spec: { tool, sampling: modelSampling(deps.model), extra: undefined },
      async drive(call) {
        const id = conversationOf(record.origin)
        const carried = id === undefined ? undefined : await deps.conversations.carryOn(id)
        const messages: McpMessage[] = carried ? carried.messages.map((m) => ({ ...m, content: [...m.content] })) : []
        const ctx: EngineContext = {
          model: deps.model,
          tools: deps.tools,
          calls: deps.calls(),
          limits: deps.limits,
          client: record.client,
          emit: (event) => carried?.recorder.record(event),
          emitSaved: async (event, messages) => carried?.recorder.save(event, messages),
          ...(carried && { checkpoint: carried.recorder.checkpoint }),
          ...(id !== undefined && { conversationId: id }),
          signal: new AbortController().signal,
          ...(deps.logger && { logger: deps.logger }),
        }
        await settle(ctx, messages, call)
      },
    }
  }
}

function conversationOf(origin: unknown): string | undefined {
  const conversation = (origin as Partial<ChatOrigin> | undefined)?.conversation
  return typeof conversation === 'string' ? conversation : undefined
}
