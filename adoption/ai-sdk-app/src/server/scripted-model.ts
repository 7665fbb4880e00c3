/**
 * An offline model for trying the app (and for its tests): the AI SDK's own MockLanguageModelV4,
 * answering with genuine stream parts. Swap in a provider model to go live, e.g. openai('gpt-4o-mini').
 */
import type { LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { simulateReadableStream } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'

type Part = LanguageModelV4StreamPart

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 10, reasoning: 0 } }

function reply(parts: Part[], reason: 'stop' | 'tool-calls', chunkDelayInMs = 0) {
  const chunks: Part[] = [{ type: 'stream-start', warnings: [] }, ...parts, { type: 'finish', usage, finishReason: { unified: reason, raw: reason } }]
  return { stream: simulateReadableStream({ chunks, chunkDelayInMs }) }
}

function text(words: string[], chunkDelayInMs = 0) {
  const id = `text-${Date.now()}`
  return reply([{ type: 'text-start', id }, ...words.map((delta): Part => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }], 'stop', chunkDelayInMs)
}

function callTool(intro: string, toolName: string, input: Record<string, unknown>) {
  const toolCallId = `call-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
  return reply([{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: intro }, { type: 'text-end', id: 't' }, { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }], 'tool-calls')
}

function said(prompt: LanguageModelV4Prompt): string {
  const last = prompt[prompt.length - 1]
  if (!last || last.role !== 'user') return ''
  return last.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ')
}

export const model = new MockLanguageModelV4({
  provider: 'scripted',
  modelId: 'demo',
  doStream: async ({ prompt }) => {
    const last = prompt[prompt.length - 1]!
    if (last.role === 'tool') {
      const result = JSON.stringify(last.content)
      const ticket = /"ticketNumber":"([^"]+)"/.exec(result)?.[1]
      if (ticket) return text(['Booked! ', `Your ticket is ${ticket}.`])
      const stars = /"stars":(\d)/.exec(result)?.[1]
      return text([stars ? `Thanks for the ${stars}-star rating!` : 'The booking did not go through.'])
    }
    const message = said(prompt)
    // ctx.sample from the book_flight tool: a travel tip.
    if (/travel tip/i.test(message)) return text(['Keep your boarding pass on your phone.'])
    const route = /book .*from (\w+) to (\w+)/i.exec(message)
    if (route) return callTool('Let me find flights. ', 'book_flight', { from: route[1], destination: route[2] })
    if (/rate my trip/i.test(message)) return callTool('Sure. ', 'rate_trip', {})
    // Slow on purpose: something to press Stop on.
    if (/story/i.test(message)) return text(Array.from({ length: 60 }, (_, i) => `word${i} `), 200)
    return text(['Ask me to book a flight from Paris to Rome.'])
  },
})
