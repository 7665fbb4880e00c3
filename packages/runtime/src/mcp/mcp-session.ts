/**
 * What one MCP session holds: made by `createServer` for each SDK server it builds (a stdio
 * connection, a 2025-11-25 HTTP session, a 2026-07-28 request) and handed to every request
 * handler of that server, so nothing is looked up in a table keyed by SDK objects.
 *
 *   - `desk`: where the session's calls meet their MCP Apps views (`view-desk.ts`);
 *   - the 2025-11-25 calls waiting on a question the SDK's shim is asking the client, by the
 *     tools/call request they belong to: if the client refuses the question, the shim answers
 *     that request with an error and never comes back for the call, so the call is ended here
 *     (its `finally` runs) instead of holding a place until it idles out.
 */
import type { LoggingLevel, RequestId } from '@modelcontextprotocol/server'
import { LOG_LEVELS } from '../tool/context.ts'
import type { Clock } from '../time/clock.ts'
import type { McpCall } from './mcp-call.ts'
import { ViewDesk } from './view-desk.ts'

export class McpSession {
  readonly desk: ViewDesk
  readonly #waitingOnClient = new Map<RequestId, McpCall>()
  /** The least severe log level the client asked for (`logging/setLevel`); unset: every level. */
  logLevel: LoggingLevel | undefined

  constructor(clock: Clock) {
    this.desk = new ViewDesk(clock)
  }

  /** Whether a log of `level` goes to this client (2025-11-25; a 2026-07-28 request says its own level). */
  allowsLog(level: LoggingLevel): boolean {
    return this.logLevel === undefined || LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(this.logLevel)
  }

  /** The call behind tools/call `requestId` waits for the client to answer a question the SDK sent. */
  waitingOnClient(requestId: RequestId, call: McpCall): void {
    this.#waitingOnClient.set(requestId, call)
  }

  doneWaiting(requestId: RequestId): void {
    this.#waitingOnClient.delete(requestId)
  }

  /** The client could not answer the question of the call behind `requestId`: end the call. */
  clientRefused(requestId: RequestId, reason: string): void {
    const call = this.#waitingOnClient.get(requestId)
    if (!call) return
    this.#waitingOnClient.delete(requestId)
    void call.host.abort(reason)
  }
}
