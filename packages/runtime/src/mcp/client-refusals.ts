/**
 * What a client said when it could not answer a question (an elicitation or a sampling request)
 * reaches the tool's result — through the SDK's 2025 shim as "Fulfilling input required by
 * 'tools/call' failed: <the client's error>". Clients often answer with a raw validation dump
 * (a ZodError's JSON, dozens of lines). The server's requests to the client are wrapped here so
 * that the error says, in one sentence, what the client refused and why.
 */
import type { RequestId, Server } from '@modelcontextprotocol/server'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'

export class ClientRefusedError extends McpBridgeError {
  readonly code = 'CLIENT_REFUSED'
}

const QUESTIONS: Record<string, string> = { 'elicitation/create': 'the question (elicitation/create)', 'sampling/createMessage': 'the sampling request' }

/**
 * Wrap `server.request` so a failed question to the client throws a `ClientRefusedError` with a
 * readable reason, and tell `onRefused` which tools/call request it was asked for.
 */
export function explainClientRefusals(server: Server, onRefused: (relatedRequestId: RequestId, reason: string) => void): void {
  const request = server.request.bind(server) as (...args: unknown[]) => Promise<unknown>
  ;(server as { request: unknown }).request = async (...args: unknown[]) => {
    const method = (args[0] as { method?: string } | undefined)?.method ?? ''
    try {
      return await request(...args)
    } catch (error) {
      const what = QUESTIONS[method]
      if (!what || !(error instanceof Error) || (error.name === 'AbortError')) throw error
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
