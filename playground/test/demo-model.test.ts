/**
 * The playground's demo model: what each kind of message starts, and that no message — however
 * long or adversarial — stalls it (the rules parse in linear time and see a bounded prefix).
 */
import { describe, expect, it } from 'vitest'
import type { ModelStreamPart } from '@mcp-bridge/runtime/server'
import { cityOf, demoModel, routeOf } from '../src/server/demo-model.ts'

async function reply(text: string): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = []
  const request = { messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }], tools: [{ name: 'book_flight', inputSchema: {} }] }
  for await (const part of demoModel.stream(request, new AbortController().signal)) parts.push(part)
  return parts
}

const toolCall = (parts: ModelStreamPart[]) => parts.find((p) => p.type === 'tool-call')

describe('demo model', () => {
  it.each([
    ['Book a flight from Oslo to Berlin', 'book_flight', { from: 'Oslo', destination: 'Berlin' }],
    ['fly from new york to los angeles!', 'book_flight', { from: 'New york', destination: 'Los angeles' }],
    ['Plan a day in Oslo', 'plan_trip', { city: 'Oslo', date: '2026-12-05' }],
    ['Build a 20-step report', 'build_report', { steps: 20 }],
    ['Rate my trip', 'rate_trip', {}],
    ['Reserve a table for dinner', 'reserve_table', { restaurant: 'Luigi’s' }],
  ])('%s → %s', async (text, name, input) => {
    expect(toolCall(await reply(text))).toMatchObject({ name, input })
  })

  it('parses routes and cities by plain search', () => {
    expect(routeOf('from A to B to C.')).toEqual(['A to B', 'C'])
    expect(routeOf('to Berlin from Oslo')).toBeUndefined()
    expect(cityOf('Plan a day in the old town in Bergen?!')).toBe('Bergen')
  })

  it('answers 100 KB adversarial messages (backtracking bait for every rule) without stalling', async () => {
    const bait = [
      `from a${' '.repeat(100_000)}x!x`,
      `Book a flight from ${'to a '.repeat(20_000)}?x`,
      `plan ${'in a '.repeat(20_000)}?x`,
      `${'report '.repeat(15_000)}${'9'.repeat(5_000)}-step`,
    ]
    for (const text of bait) expect((await reply(text)).at(-1)).toMatchObject({ type: 'finish' })
    expect(routeOf(`from a${' '.repeat(100_000)} to b`)).toEqual(['A', 'B'])
  }, 30_000)
})
