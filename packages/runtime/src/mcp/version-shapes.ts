/**
 * Requests the server sends a client take the shape its negotiated protocol version defines.
 * The SDK's 2025 shim writes `mode: "form"` into every `elicitation/create`, a field that exists
 * only from 2025-11-25; a 2025-06-18 client gets the request without it. (Sampling messages are
 * shaped where they are built, in `drive-call.ts`.)
 */
import type { Server } from '@modelcontextprotocol/server'
import { speaksBefore20251125 } from './client-capabilities.ts'

export function shapeRequestsForVersion(server: Server): void {
  const request = server.request.bind(server) as (...args: unknown[]) => Promise<unknown>
  ;(server as { request: unknown }).request = (...args: unknown[]) => {
    const sent = args[0] as { method?: string; params?: Record<string, unknown> } | undefined
    if (sent?.method === 'elicitation/create' && sent.params?.mode === 'form' && speaksBefore20251125(server.getNegotiatedProtocolVersion())) {
      const { mode: _mode, ...params } = sent.params
      args[0] = { ...sent, params }
    }
    return request(...args)
  }
}
