/**
 * `ctx.sample` of a call served over MCP reaches the client as an input request, so the call's
 * sampling provider does not ask anyone: it parks the request here and waits for the round that
 * brings the client's answer (or a refusal, when the client cannot sample).
 */
import { withResolvers, type Operation, type WithResolvers } from 'effection'
import type { SamplingProvider, SamplingRequest, SamplingResponse } from '../sampling/provider.ts'

export interface ParkedSample {
  request: SamplingRequest
  resolvers: WithResolvers<SamplingResponse>
}

export class ParkingSampler implements SamplingProvider {
  /** The sampling request the call waits on, if any. */
  current: ParkedSample | undefined
  /** Resolved (and replaced) each time a request is parked. */
  #parked: WithResolvers<void>

  constructor() {
    this.#parked = withResolvers<void>()
  }

  /** Returns once `ctx.sample` has parked its request (it does so right after its `sample` event). */
  *parked(): Operation<ParkedSample> {
    while (!this.current) yield* this.#parked.operation
    return this.current
  }

  *createMessage(request: SamplingRequest): Operation<SamplingResponse> {
    const parked = { request, resolvers: withResolvers<SamplingResponse>() }
    this.current = parked
    const wake = this.#parked
    this.#parked = withResolvers<void>()
    wake.resolve()
    try {
      return yield* parked.resolvers.operation
    } finally {
      if (this.current === parked) this.current = undefined
    }
  }
}
