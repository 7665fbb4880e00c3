import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, createPlugin } from '../../src/index.ts'
import { createMcpServer, type CallLimits, type McpLimits } from '../../src/mcp.ts'
import type { ChatLimits } from '../../src/server.ts'
import type { AiSdkBridgeLimits } from '../../src/ai-sdk.ts'
import { OptionsError, ToolListError } from '../../src/errors.ts'
import { add, askAge } from '../fixtures/mcp-tools.ts'

describe('createMcpServer options', () => {
  it('accepts tools and plugins (a plugin serves its mcp part)', () => {
    const plugin = createPlugin(askAge)
      .onElicit({
        *age() {
          return { action: 'decline' as const }
        },
      })
      .build()
    const server = createMcpServer({ name: 's', version: '1', tools: [add, plugin] })
    expect([...server.tools.keys()]).toEqual(['add', 'ask_age'])
    expect(server.tools.get('ask_age')).toBe(askAge)
  })

  it.each([
    [{ name: '', version: '1', tools: [] }, OptionsError, /name: give the server a name/],
    [{ name: 's', version: '1', tools: [], secret: 'short' }, OptionsError, /secret is 5 bytes; use at least 32/],
    [{ name: 's', version: '1', tools: [], limits: { idleTimeoutMs: 10 } }, OptionsError, /limits\.idleTimeoutMs: at least 1000 ms; a person needs time to answer/],
    [{ name: 's', version: '1', tools: [], inputTimeoutMs: 60_000 } as never, OptionsError, /inputTimeoutMs: moved into limits: give \{ limits: \{ idleTimeoutMs: … \} \}/],
    [{ name: 's', version: '1', tools: [], port: 3000 }, OptionsError, /Unrecognized key: "port"/],
    [{ name: 's', version: '1', tools: [{ name: 'fake' }] }, ToolListError, /createMcpServer\(\{ tools \}\): tools\[0\] is not a tool or plugin/],
  ])('refuses bad options with a message that says what to fix (%#)', (options, kind, message) => {
    expect(() => createMcpServer(options as never)).toThrow(kind)
    expect(() => createMcpServer(options as never)).toThrow(message)
  })

  it('names every option that moved into limits at once, with its name there, and nothing is half-applied', () => {
    const flat = { name: 's', version: '1', tools: [add], maxSuspendedCallsPerClient: 5, warmCalls: 0, lockLeaseMs: 5_000 }
    const error = (() => {
      try {
        createMcpServer(flat as never)
      } catch (caught) {
        return caught as OptionsError
      }
    })()
    expect(error).toBeInstanceOf(OptionsError)
    expect(error!.options).toEqual(['maxSuspendedCallsPerClient', 'warmCalls', 'lockLeaseMs'])
    expect(error!.message).toContain('maxSuspendedCallsPerClient: moved into limits: give { limits: { maxCallsPerClient: … } }')
  })

  it('takes the limits by the names every surface uses: the chat, MCP and AI SDK limits are one vocabulary', () => {
    expectTypeOf<ChatLimits>().toExtend<CallLimits>()
    expectTypeOf<McpLimits>().toExtend<CallLimits>()
    expectTypeOf<AiSdkBridgeLimits>().toEqualTypeOf<CallLimits>()
    const limits: Partial<CallLimits> = { maxActiveCalls: 50, maxCallsPerClient: 5, idleTimeoutMs: 60_000, warmCalls: 10, lockLeaseMs: 5_000, maxContextBytes: 4096 }
    const server = createMcpServer({ name: 's', version: '1', tools: [add], limits: { ...limits, maxRounds: 3 } })
    expect(server.tools.size).toBe(1)
  })

  it('refuses two different tools with one name', () => {
    const twin = createMcpTool('add')
      .parameters(z.object({}))
      .elicits({})
      .execute(function* () {
        return 0
      })
    expect(() => createMcpServer({ name: 's', version: '1', tools: [add, twin] })).toThrow(/two different tools are named "add"/)
  })
})
