/**
 * What the MCP server keeps per call, beside the call itself (which lives in the shared
 * `CallRegistry`): the round state between a question and the client's answer.
 */
import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/server'
import type { LiveCall } from '../calls/live-call.ts'
import type { InputWait } from './call-state.ts'
import type { ParkingSampler } from './parked-sampling.ts'

export interface McpRound {
  /** sha256 of the call's arguments: a requestState only resumes the call it was issued for. */
  readonly argsDigest: string
  readonly sampler: ParkingSampler
  /** The client's capabilities as of the latest round (2026-07-28 clients send them per request). */
  caps: ClientCapabilities
  /** The protocol revision of the latest round: what shapes the client accepts. */
  version: string | undefined
  /** What the call waits for between rounds, and the input request that asked for it. */
  wait: InputWait | undefined
  inputRequest: InputRequest | undefined
  /** Stops the current request's cancellation from reaching the call. */
  detachCancel: (() => void) | undefined
  /**
   * The latest progress a call no request serves said (`ctx.notify`: "Rendering (3/10)"): a task's
   * `statusMessage` while it works, on the instance running it.
   */
  progress?: string
}

export type McpCall = LiveCall<McpRound>
