/**
 * One tool call held by a `CallRegistry`: the bridge host running it, the token that authorises
 * answers and aborts, and one reader of its events that every request serving the call continues
 * from (a turn reads up to the call's question; the next turn, with the answer, reads on). `X` is
 * what the serving side keeps per call (nothing for chat; the round state for MCP).
 */
import type { BridgeHost } from '../bridge/create-bridge-host.ts'
import type { BridgeEvent } from '../bridge/events.ts'

export interface LiveCall<X = unknown> {
  readonly callId: string
  readonly toolName: string
  /** Whose call it is (for per-client limits). */
  readonly client: string
  readonly host: BridgeHost<unknown>
  /** Issued with the call; a state-changing request must present it. */
  readonly token: string
  readonly createdAt: number
  /** The call's events, read once, in order, by whichever request is serving it now. */
  readonly events: AsyncGenerator<BridgeEvent, void, undefined>
  /** What the serving side keeps for this call. */
  readonly extra: X
}

/** The next event of a call, or `undefined` once it has ended and every event was read. */
export async function nextEvent(call: LiveCall): Promise<BridgeEvent | undefined> {
  const next = await call.events.next()
  return next.done ? undefined : next.value
}
