/**
 * An MCP call whose server stopped while it ran, carried on by this server (see
 * `CallRegistry`'s recovery). The client's request died with that server; the call is replayed
 * from its journal — recorded steps are not run again, an unrecorded one runs again with the same
 * idempotency key — and runs to its next stop with the client's capabilities as recorded: its next
 * question is stored, its end recorded. The client learns where it is by retrying its last round:
 * a requestState whose answer was taken returns the call's current question or its result. A
 * 2025-11-25 call asked its questions in a session that died with its server: recovered, it runs
 * to its end or its next question, where it ends (nobody can answer it there).
 */
import { until } from 'effection'
import type { RecoveryPlan } from '../calls/registry-types.ts'
import { SESSION_GONE } from './session-resumption.ts'
import type { CallRecord } from '../calls/stores/call-store.ts'
import { mcpCallToStop } from './mcp-surface.ts'
import type { McpRound } from './mcp-call.ts'
import { newRound, type McpOrigin, type ToolCallService } from './serve-tool-call.ts'

/**
 * What a stored MCP call runs with when no request brings its client's capabilities (a recovery, a
 * task's answer): its tool, and the client and caller as recorded when it started.
 */
export function recordedCallSpec(service: Pick<ToolCallService, 'tools'>, record: CallRecord): RecoveryPlan<McpRound>['spec'] | undefined {
  const tool = service.tools.get(record.tool)
  if (!tool) return undefined
  const origin = record.origin as Partial<McpOrigin> | undefined
  const round = newRound(record.paramsDigest, origin?.caps ?? {}, origin?.version)
  return { tool, sampling: round.sampler, extra: round, ...(origin?.auth && { auth: origin.auth }) }
}

export function mcpRecovery(service: ToolCallService, record: CallRecord): RecoveryPlan<McpRound> | undefined {
  const spec = recordedCallSpec(service, record)
  if (!spec) return undefined
  const sessionBound = (record.origin as Partial<McpOrigin> | undefined)?.sessionBound === true
  return {
    spec,
    drive: (call) =>
      service.scope.run(function* () {
        // Parked at its question, pinned to nothing: its client retries its last round. A call
        // whose questions its session asked cannot be asked here: it ends, and its client's
        // resumed stream gets that end with what it had done (`session-resumption.ts`).
        const stop = yield* mcpCallToStop(service, call, undefined, sessionBound ? { park: false } : {})
        if (stop.kind === 'done' && stop.unsaved) throw stop.unsaved
        if (stop.kind === 'done' || !sessionBound) return
        yield* until(call.host.abort(SESSION_GONE))
        yield* until(service.calls.settled(call))
      }),
  }
}
