/**
 * Both ends of the chat wire go through here. The server encodes a question from the bridge's
 * `ElicitRequest`; the client decodes it back into the same `ElicitRequest` with the key's
 * compiled model (from the plugin's tool), so a plugin handler receives exactly what the tool
 * asked — typed context, `params`, `handoff` — and nothing else reads the wire by hand.
 */
import { formatIssues, summarizeIssues } from '../errors/issues.ts'
import type { CompiledElicit } from '../tool/compile-elicits.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import { chatStreamEventSchema, type ChatStreamEvent, type ElicitRequestWire } from './chat-wire.ts'
import { encodeNdjson, readNdjson } from './ndjson.ts'
import { ChatProtocolError } from '../errors/browser-errors.ts'

/**
 * The question as JSON. The context is sent once, as data, never inside the message.
 *
 * @example
 * ```ts
 * import { encodeElicitRequest, type ElicitRequestWire } from '@mcp-bridge/runtime/client'
 * import type { ElicitRequest } from '@mcp-bridge/runtime'
 *
 * declare const request: ElicitRequest // from a bridge host's elicit event
 * const wire: ElicitRequestWire = encodeElicitRequest(request) // JSON for the browser
 * ```
 */
export function encodeElicitRequest(request: ElicitRequest): ElicitRequestWire {
  return {
    id: request.id,
    key: request.key,
    message: request.message,
    schema: request.schema.json,
    context: request.context as Record<string, unknown>,
    params: request.params,
    handoff: request.handoff,
  }
}

/**
 * The question again, typed by the key's compiled model: the context is checked against the
 * key's context schema (a mismatch means client and server were built from different tools).
 *
 * @example
 * ```ts
 * import { decodeElicitRequest, type ElicitRequestWire } from '@mcp-bridge/runtime/client'
 * import { bookFlight } from './tools.ts'
 *
 * declare const wire: ElicitRequestWire // from an elicit_request event
 * const request = decodeElicitRequest(wire, bookFlight.compiled[wire.key]!) // its schema as zod again, its context checked
 * ```
 */
export function decodeElicitRequest(wire: ElicitRequestWire, compiled: CompiledElicit): ElicitRequest {
  let context = wire.context
  if (compiled.context) {
    const parsed = compiled.context.safeParse(context)
    if (!parsed.success) {
      throw new ChatProtocolError(
        `The context of "${wire.key}" does not match the key's context schema (is the client built from the same tool as the server?): ${formatIssues(summarizeIssues(parsed.error.issues))}`,
      )
    }
    context = parsed.data as Record<string, unknown>
  }
  return {
    id: wire.id,
    key: wire.key,
    message: wire.message,
    schema: { zod: compiled.response, json: compiled.wire },
    context,
    params: wire.params,
    handoff: wire.handoff,
  }
}

/**
 * One event as a line of the response body.
 *
 * @example
 * ```ts
 * import { encodeChatEvent } from '@mcp-bridge/runtime/client'
 *
 * encodeChatEvent({ type: 'text_delta', text: 'Hello' }) // '{"type":"text_delta","text":"Hello"}\n'
 * ```
 */
export function encodeChatEvent(event: ChatStreamEvent): string {
  return encodeNdjson(event)
}

/**
 * The events of a response body, each checked against the protocol.
 *
 * @example
 * ```ts
 * import { readChatEvents } from '@mcp-bridge/runtime/client'
 *
 * const response = await fetch('/api/chat', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Book a flight' }] }] }),
 * })
 * for await (const event of readChatEvents(response.body!)) {
 *   if (event.type === 'elicit_request') console.log('asked:', event.request.message)
 * }
 * ```
 */
export async function* readChatEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<ChatStreamEvent> {
  for await (const raw of readNdjson(body, signal)) {
    const parsed = chatStreamEventSchema.safeParse(raw)
    if (!parsed.success) {
      throw new ChatProtocolError(`The chat endpoint sent an event this client does not understand: ${JSON.stringify(raw).slice(0, 200)}`)
    }
    yield parsed.data
  }
}
