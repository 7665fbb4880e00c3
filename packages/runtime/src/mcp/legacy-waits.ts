/**
 * 2025-11-25 calls waiting on a question that the SDK's shim is asking the client, keyed by the
 * tools/call request they belong to, per connection. If the client refuses the question, the
 * shim answers the tools/call with an error and never comes back for the call — so the call is
 * ended here (its `finally` runs) instead of holding a place until it idles out.
 */
import type { RequestId, Server } from '@modelcontextprotocol/server'
import type { McpCall } from './mcp-call.ts'

const waits = new WeakMap<Server, Map<RequestId, McpCall>>()

export function waitingOnClient(server: Server, requestId: RequestId, call: McpCall): void {
  let calls = waits.get(server)
  if (!calls) waits.set(server, (calls = new Map()))
  calls.set(requestId, call)
}

export function doneWaiting(server: Server, requestId: RequestId): void {
  waits.get(server)?.delete(requestId)
}

/** The client could not answer the question of the call behind `requestId`: end the call. */
export function clientRefused(server: Server, requestId: RequestId, reason: string): void {
  const call = waits.get(server)?.get(requestId)
  if (!call) return
  doneWaiting(server, requestId)
  void call.host.abort(reason)
}
