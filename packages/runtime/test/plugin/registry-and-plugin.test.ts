import { describe, expect, it } from 'vitest'
import { createMcpTool, createPlugin } from '../../src/index.ts'
import { PluginDefinitionError } from '../../src/errors.ts'
import { createPluginRegistry } from '../../src/client.ts'
import { DuplicatePluginError } from '../../src/errors.ts'
import { bookFlight } from '../fixtures/book-flight.ts'

function* decline() {
  return { action: 'decline' as const }
}

const plugin = createPlugin(bookFlight).onElicit({ pickFlight: decline, pickSeat: decline }).build()

describe('createPlugin', () => {
  it('builds { name, server: { tools }, client, mcp } from one tool', () => {
    expect(plugin.kind).toBe('mcp-plugin')
    expect(plugin.name).toBe('book_flight')
    expect(plugin.server.tools).toEqual([bookFlight])
    expect(plugin.mcp).toBe(bookFlight)
    expect(plugin.client).toMatchObject({ kind: 'mcp-plugin-client', toolName: 'book_flight', compiled: bookFlight.compiled })
    expect(Object.keys(plugin.client.handlers)).toEqual(['pickFlight', 'pickSeat'])
    expect(Object.isFrozen(plugin.client.handlers)).toBe(true)
  })

  it('checks the handler keys at run time too, naming what is missing and extra', () => {
    const run = () => createPlugin(bookFlight).onElicit({ pickFlight: decline, pickMeal: decline } as never)
    expect(run).toThrow(PluginDefinitionError)
    expect(run).toThrow(/no handler for "pickSeat"; handlers for undeclared key\(s\) "pickMeal"/)
    expect(() => createPlugin(bookFlight).onElicit({ pickFlight: decline, pickSeat: 'x' } as never)).toThrow(/"pickSeat" is not a function/)
    expect(() => createPlugin({} as never)).toThrow(/createMcpTool/)
  })

  it('yields a plugin for a tool whose elicits is {}', () => {
    const plain = createMcpTool('plain')
      .elicits({})
      .execute(function* () {
        return 1
      })
    expect(createPlugin(plain).onElicit({}).build().client.handlers).toEqual({})
  })
})

describe('createPluginRegistry', () => {
  it('registers, gets and lists by tool name', () => {
    const registry = createPluginRegistry([plugin.client])
    expect(registry.has('book_flight')).toBe(true)
    expect(registry.get('book_flight')).toBe(plugin.client)
    expect(registry.get('other')).toBeUndefined()
    expect(registry.has('other')).toBe(false)
    expect(registry.list()).toEqual([plugin.client])
  })

  it('refuses a second plugin for the same tool, naming both', () => {
    const registry = createPluginRegistry([plugin.client])
    const again = createPlugin(bookFlight).onElicit({ pickFlight: decline, pickSeat: decline }).build()
    expect(() => registry.register(again.client)).toThrow(DuplicatePluginError)
    expect(() => createPluginRegistry([plugin.client, again.client])).toThrow(
      /Two plugins are registered for tool "book_flight": registration #1 \(handlers: pickFlight, pickSeat\) and registration #2/,
    )
  })

  it('refuses something that is not a plugin client part', () => {
    expect(() => createPluginRegistry().register(plugin as never)).toThrow(/plugin's client part/)
  })
})
