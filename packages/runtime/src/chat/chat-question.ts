/**
 * How a question is asked in the browser — by the chat handler and the AI SDK bridge alike: its
 * wire form (`ElicitRequestWire`, what `elicit_request` and an `input-required` part carry), stored
 * with the call so a reload, another instance or a replay asks exactly the same.
 */
import type { StopSurface } from '../calls/drive-to-stop.ts'
import { encodeElicitRequest } from '../protocol/codec.ts'
import type { ElicitRequestWire } from '../protocol/chat-wire.ts'

export const browserQuestions: StopSurface<undefined, ElicitRequestWire> = {
  question: (_call, request) => ({ id: request.id, key: request.key, wire: encodeElicitRequest(request) }),
}
