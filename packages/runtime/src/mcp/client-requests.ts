/**
 * The server's questions to a client (`elicitation/create`, `sampling/createMessage`) go through
 * the SDK's `server.request`; it is wrapped once, here, for two things the SDK does not do:
 *
 *   - the request takes the shape of the negotiated version: the SDK's 2025 shim writes
 *     `mode: "form"` into every elicitation, a field that exists only from 2025-11-25, so a
 *     2025-06-18 client gets it without. (Sampling messages are shaped where they are built, in
 *     `mcp-surface.ts`.)
 *   - a refusal reads as one sentence. What a client said when it could not answer reaches the
 *     tool's result (through the shim, as "Fulfilling input required by 'tools/call' failed: …"),
 *     and clients often answer with a raw validation dump (a ZodError's JSON, dozens of lines).
 *     `onRefused` learns which tools/call request the question belonged to.
 */
import type { RequestId, Server } from '@modelcontextprotocol/server'
import { speaksBefore20251125 } from './client-capabilities.ts'
import { ClientRefusedError } from '../errors/server-errors.ts'

const QUESTIONS: Record<string, string> = { 'elicitation/create': 'the question (elicitation/create)', 'sampling/createMessage': 'the sampling request' }

type Sent = { method?: string; params?: Record<string, unknown> } | undefined

export function wrapClientRequests(server: Server, onRefused: (relatedRequestId: RequestId, reason: string) => void): void {
  const request = server.request.bind(server) as (...args: unknown[]) => Promise<unknown>
  ;(server as { request: unknown }).request = async (...args: unknown[]) => {
    const sent = args[0] as Sent
    if (sent?.method === 'elicitation/create' && sent.params?.mode === 'form' && speaksBefore20251125(server.getNegotiatedProtocolVersion())) {
      const { mode: _mode, ...params } = sent.params
      args[0] = { ...sent, params }
    }
    try {
      return await request(...args)
    } catch (error) {
      const what = QUESTIONS[sent?.method ?? '']
      if (!what || !(error instanceof Error) || error.name === 'AbortError') throw error
      const refused = new ClientRefusedError(`The client could not answer ${what}: ${readableReason(error.message)}`, { cause: error })
      const related = (args[1] as { relatedRequestId?: RequestId } | undefined)?.relatedRequestId
      if (related !== undefined) onRefused(related, refused.message)
      throw refused
    }
  }
}

/** A validation dump becomes "path: message; …"; anything else is one line of at most 300 characters. */
export function readableReason(message: string): string {
  const start = message.search(/[[{]/)
  if (start !== -1) {
    try {
      const parsed: unknown = JSON.parse(message.slice(start))
      const issues = (Array.isArray(parsed) ? parsed : [parsed]).filter(
        (i): i is { path?: unknown[]; message: string } => typeof i === 'object' && i !== null && typeof (i as { message?: unknown }).message === 'string',
      )
      if (issues.length > 0) {
        const prefix = message.slice(0, start).replace(/[\s:]+$/, '')
        const listed = issues.slice(0, 3).map((i) => `${Array.isArray(i.path) && i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
        const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''
        return `${prefix ? `${prefix}: ` : ''}${listed.join('; ')}${more}`
      }
    } catch {
      // not JSON after all: fall through to the one-line form
    }
  }
  const line = message.replace(/\s+/g, ' ').trim()
  return line.length > 300 ? `${line.slice(0, 297)}...` : line
}
