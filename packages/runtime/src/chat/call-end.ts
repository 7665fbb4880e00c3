/**
 * How a call's end joins a chat conversation: the tool result the model reads (in the user
 * message after the assistant message that called it), and the `tool_result` event the page
 * shows. One construction for a turn that ran the call and for a reload that finds it ended.
 */
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { doneBeforeStop, resultText, toolResultOf } from '../bridge/tool-result.ts'
import type { ChatStreamEvent } from '../protocol/chat-wire.ts'
import type { McpMessage, ToolResultContent } from '../sampling/content.ts'
import { contentText } from '../tool/with-content.ts'

/** A result as the model reads it: text, images and audio as they are; resources in words. */
export function chatResult(callId: string, result: ReturnType<typeof toolResultOf>): ToolResultContent {
  const content = result.content.map((block) =>
    block.type === 'text' || block.type === 'image' || block.type === 'audio' ? block : { type: 'text' as const, text: contentText(block) },
  )
  return { type: 'tool_result', toolUseId: callId, ...result, content }
}

/** How a page tells a stopped call: cancelled (someone asked), and what it had done that stays done. */
export function stopped(outcome: Extract<BridgeOutcome<unknown>, { status: 'aborted' }>): { cancelled?: true; alreadyDone?: string } {
  const done = doneBeforeStop(outcome.completed)
  return { ...(outcome.cancelled && { cancelled: true as const }), ...(done && { alreadyDone: done }) }
}

/** A call's end: the result for the model and the event for the page. */
export function callEnd(
  callId: string,
  toolName: string,
  outcome: BridgeOutcome<unknown>,
): { result: ToolResultContent; event: Extract<ChatStreamEvent, { type: 'tool_result' }> } {
  const result = toolResultOf(outcome)
  return {
    result: chatResult(callId, result),
    event: {
      type: 'tool_result',
      callId,
      toolName,
      result: outcome.status === 'completed' ? outcome.result : resultText(result),
      ...(result.isError && { isError: true }),
      ...(outcome.status === 'aborted' && stopped(outcome)),
    },
  }
}

/**
 * Tool results for the last assistant message go into the user message right after it
 * (MCP: a tool_use must be followed by a user message of only tool_results). A result for a
 * call that is not in the last assistant message (a lost call from an older turn) is
 * added as its own message so the model still learns about it.
 */
export function addToolResult(conversation: McpMessage[], callId: string, result: ToolResultContent): void {
  const assistantIndex = conversation.findLastIndex((m) => m.role === 'assistant')
  const assistant = conversation[assistantIndex]
  const belongs = assistant?.content.some((b) => b.type === 'tool_use' && b.id === callId)
  if (!belongs) {
    conversation.push({ role: 'user', content: [result] })
    return
  }
  let holder = conversation[assistantIndex + 1]
  if (!holder || holder.role !== 'user' || !holder.content.every((b) => b.type === 'tool_result')) {
    holder = { role: 'user', content: [] }
    conversation.splice(assistantIndex + 1, 0, holder)
  }
  holder.content = [...holder.content.filter((b) => !(b.type === 'tool_result' && b.toolUseId === callId)), result]
}
