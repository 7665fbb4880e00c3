/**
 * A scripted MCP client for unit-testing tools: it answers
 * elicitations and sampling requests from queues, in order, and records what it was asked.
 */
import type { Operation } from 'effection'
import type { SamplingProvider, SamplingRequest, SamplingResponse } from '../sampling/provider.ts'
import { SCHEMA_TOOL_NAME } from '../sampling/types.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { ElicitResult } from '../tool/elicits.ts'
import { MockScriptExhaustedError } from '../errors/testing-errors.ts'

/**
 * A scripted answer to a question: an `ElicitResult`, or a function of the request that returns one.
 */
export type MockElicitResponse = ElicitResult<unknown> | ((request: ElicitRequest) => ElicitResult<unknown>)

/**
 * A scripted model reply: a string is a text reply; `{ structured: value }` answers a structured
 * request through the `__schema__` tool; a full `SamplingResponse` is sent as is.
 */
export type MockSampleReply = string | { structured: unknown } | SamplingResponse
/**
 * A scripted model reply, or a function of the sampling request that returns one.
 */
export type MockSampleResponse = MockSampleReply | ((request: SamplingRequest) => MockSampleReply)

/**
 * The script of a `createMockMcpClient`: the answers to give, in order, to questions and to sampling requests.
 */
export interface MockMcpClientOptions {
  elicitResponses?: MockElicitResponse[]
  sampleResponses?: MockSampleResponse[]
}

/**
 * A scripted user and model for `runMcpTool`: answers questions and sampling requests in order and keeps what the tool asked.
 */
export interface MockMcpClient extends SamplingProvider {
  /** The next scripted answer for `request`, or undefined when the script is used up. */
  answerElicit(request: ElicitRequest): ElicitResult<unknown> | undefined
  readonly elicitRequests: readonly ElicitRequest[]
  readonly sampleRequests: readonly SamplingRequest[]
  /** How many scripted answers are left. */
  remaining(): { elicit: number; sample: number }
}

/**
 * A scripted user and model for `runMcpTool`: each question gets the next scripted answer, each sampling request
 * the next scripted reply; it keeps what was asked. Running out aborts the run with a reason naming the key.
 *
 * @example
 * ```ts
 * import { createMockMcpClient, runMcpTool } from '@mcp-bridge/runtime/testing'
 * import { bookFlight } from './tools.ts'
 *
 * const client = createMockMcpClient({
 *   elicitResponses: [{ action: 'accept', content: { row: 12, seat: 'C' } }],
 *   sampleResponses: ['Arrive two hours early.'],
 * })
 * const run = await runMcpTool(bookFlight, { destination: 'LAX' }, client)
 * console.log(run.status, client.elicitRequests.length) // 'completed' 1
 * ```
 */
export function createMockMcpClient(options: MockMcpClientOptions = {}): MockMcpClient {
  const elicitQueue = [...(options.elicitResponses ?? [])]
  const sampleQueue = [...(options.sampleResponses ?? [])]
  const elicitRequests: ElicitRequest[] = []
  const sampleRequests: SamplingRequest[] = []
  let toolUses = 0

  return {
    elicitRequests,
    sampleRequests,
    remaining: () => ({ elicit: elicitQueue.length, sample: sampleQueue.length }),
    answerElicit(request) {
      elicitRequests.push(request)
      const next = elicitQueue.shift()
      return typeof next === 'function' ? next(request) : next
    },
    *createMessage(request): Operation<SamplingResponse> {
      sampleRequests.push(request)
      const next = sampleQueue.shift()
      if (next === undefined) {
        throw new MockScriptExhaustedError(`mock MCP client: no sample response left for request #${sampleRequests.length}; add one to sampleResponses`)
      }
      const reply = typeof next === 'function' ? next(request) : next
      if (typeof reply === 'string') return { role: 'assistant', content: [{ type: 'text', text: reply }], model: 'mock' }
      if ('structured' in reply) {
        toolUses += 1
        return {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `mock_tool_use_${toolUses}`, name: SCHEMA_TOOL_NAME, input: reply.structured as Record<string, unknown> }],
          model: 'mock',
          stopReason: 'toolUse',
        }
      }
      return reply
    },
  }
}
