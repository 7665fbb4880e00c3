/**
 * One tool call served over MCP: the bridge host running the tool, how far its events have been
 * reported, and the sampling request it is parked on, if any. `ctx.sample` reaches the client as
 * an input request, so the call's sampling provider does not ask anyone: it parks the request
 * here and waits for the round that brings the client's answer.
 */
import { withResolvers, type Operation, type WithResolvers } from 'effection'
import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/server'
import { createBridgeHost, type BridgeHost } from '../bridge/create-bridge-host.ts'
import type { JournalEntry } from '../bridge/journal.ts'
import type { SamplingProvider, SamplingRequest, SamplingResponse } from '../sampling/provider.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import type { InputWait } from './call-state.ts'

export interface ParkedSample {
  request: SamplingRequest
  resolvers: WithResolvers<SamplingResponse>
}

export class LiveCall {
  readonly host: BridgeHost
  /** Events of `host` already reported to the client. */
  cursor = 0
  /** The client's capabilities as of the latest round (2026-07-28 clients send them per request). */
  caps: ClientCapabilities
  /** What the call waits for between rounds, and the input request that asked for it. */
  wait: InputWait | undefined
  inputRequest: InputRequest | undefined
  sample: ParkedSample | undefined
  /** A round is being served: a concurrent retry with the same state is refused. */
  busy = false
  expiry: ReturnType<typeof setTimeout> | undefined
  detachCancel: (() => void) | undefined
  #parkWaiters: Array<(parked: ParkedSample) => void> = []

  constructor(
    readonly tool: AnyMcpTool,
    readonly callId: string,
    readonly argsDigest: string,
    params: unknown,
    caps: ClientCapabilities,
    replay?: readonly JournalEntry[],
  ) {
    this.caps = caps
    this.host = createBridgeHost({ tool, params, callId, sampling: this.#provider(), ...(replay && { replay }) })
  }

  /** Resolves once `ctx.sample` has parked its request (it does so right after its `sample` event). */
  parkedSample(): Promise<ParkedSample> {
    return this.sample ? Promise.resolve(this.sample) : new Promise((resolve) => this.#parkWaiters.push(resolve))
  }

  #provider(): SamplingProvider {
    const call = this
    return {
      *createMessage(request: SamplingRequest): Operation<SamplingResponse> {
        const resolvers = withResolvers<SamplingResponse>()
        const parked = { request, resolvers }
        call.sample = parked
        const waiters = call.#parkWaiters
        call.#parkWaiters = []
        for (const wake of waiters) wake(parked)
        try {
          return yield* resolvers.operation
        } finally {
          if (call.sample === parked) call.sample = undefined
        }
      },
    }
  }
}
