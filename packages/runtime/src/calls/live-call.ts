/**
 * One tool call held by a `CallRegistry`: the bridge host running it, the hash of the token that
 * authorises answers and aborts, one reader of its events that every request serving the call
 * continues from (a turn reads up to the call's question; the next turn, with the answer, reads
 * on), and what the registry needs to keep its stored record current. `X` is what the serving
 * side keeps per call (nothing for chat; the round state for MCP).
 */
import type { CallerAuth } from '../tool/caller-auth.ts'
import type { Scope } from 'effection'
import type { BridgeHost } from '../bridge/create-bridge-host.ts'
import { nextAsync, type BridgeEvent, type EventReader } from '../bridge/events.ts'
import type { CallLease } from './stores/call-store.ts'
import type { CallTrace } from './call-trace.ts'

/**
 * A call held in this process: its bridge host, its events, its store lease and revision, and what the serving side keeps.
 */
export interface LiveCall<X = unknown> {
  readonly callId: string
  readonly toolName: string
  /** Whose call it is (for per-client limits). */
  readonly client: string
  /** Who started it (`ctx.auth`): only this caller may answer or cancel it. */
  readonly auth: CallerAuth | undefined
  readonly host: BridgeHost<unknown>
  /** sha256 of the token issued with the call (none for MCP calls, authorised by their state). */
  readonly tokenHash: string | undefined
  readonly createdAt: number
  /** The call's events, read once, in order, by whichever request is serving it now. */
  readonly events: EventReader<BridgeEvent>
  /** The registry's scope, where the call runs (and where async code waits for its events). */
  readonly scope: Scope
  /** What the serving side keeps for this call. */
  readonly extra: X
  readonly params: unknown
  readonly paramsDigest: string
  /** Stored with the record, for a recovery elsewhere (`CallRecord.origin`). */
  readonly origin: unknown
  /** The revision of the stored record this copy wrote last (0: nothing stored yet). */
  revision: number
  /** The store lock held while a request advances the call. */
  lease: CallLease | undefined
  /** The chain of this call's store writes (they reach the store in order). */
  writes: Promise<void>
  /** Another instance advanced the call: this copy stops and records nothing more. */
  superseded: boolean
  /** The id of the question the stored record says the call waits for, if it does. */
  storedQuestion: string | undefined
  /**
   * A request in this process holds on to this copy while it waits (an MCP Apps view answers it,
   * or a 2025-11-25 request spans its rounds): it is never let go of from memory while parked.
   */
  pinned: boolean
  /** Its spans and metrics (no-ops without OpenTelemetry). */
  readonly trace: CallTrace
}

/**
 * The next event of a call, or `undefined` once it has ended and every event was read (async code at the edge).
 *
 * @example
 * ```ts
 * import { nextEvent, type LiveCall } from '@mcp-bridge/runtime/server'
 *
 * async function follow(call: LiveCall): Promise<void> {
 *   for (let event = await nextEvent(call); event; event = await nextEvent(call)) console.log(event.type)
 * }
 * ```
 */
export function nextEvent(call: LiveCall): Promise<BridgeEvent | undefined> {
  return nextAsync(call.scope, call.events)
}
