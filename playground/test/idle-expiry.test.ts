import { readChatEvents, type ChatStreamEvent } from '@mcp-bridge/runtime/client'
import { createChatHandler } from '@mcp-bridge/runtime/server'
import { createScriptedModel, createTestClock } from '@mcp-bridge/runtime/testing'
import { expect, it } from 'vitest'
import { rateTrip } from '../src/tools/rate-trip/tool.ts'

it('a question nobody answers for 30 minutes ends the call, and not a millisecond sooner', async () => {
  const clock = createTestClock()
  const model = createScriptedModel({ onUserMessage: [{ match: /rate/, reply: { toolCalls: [{ name: 'rate_trip', input: {} }] } }] })
  const chat = createChatHandler({ tools: [rateTrip], model, clock, limits: { idleTimeoutMs: 30 * 60_000 } })
  const response = await chat(
    new Request('http://127.0.0.1/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'rate my trip' }] }] }),
    }),
  )
  const events: ChatStreamEvent[] = []
  for await (const event of readChatEvents(response.body!)) events.push(event)
  expect(events.some((e) => e.type === 'elicit_request')).toBe(true)

  await clock.advance(30 * 60_000 - 1)
  expect(chat.calls.size).toBe(1) // still waiting for the person
  await clock.advance(1)
  expect(chat.calls.size).toBe(0)
  const [callId] = events.flatMap((e) => (e.type === 'tool_call' ? [e.callId] : []))
  expect(await chat.calls.finishedHow(callId!)).toBe('it was aborted: no answer came within 1800 s (limits.idleTimeoutMs)')
  await chat.close()
})
