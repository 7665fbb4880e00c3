import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, createPlugin } from '../../src/index.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { OptionsError } from '../../src/errors.ts'
import { ToolListError } from '../../src/errors.ts'
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
    [{ name: 's', version: '1', tools: [], inputTimeoutMs: 10 }, OptionsError, /inputTimeoutMs: at least 1000 ms; a person needs minutes/],
    [{ name: 's', version: '1', tools: [], port: 3000 }, OptionsError, /Unrecognized key: "port"/],
    [{ name: 's', version: '1', tools: [{ name: 'fake' }] }, ToolListError, /createMcpServer\(\{ tools \}\): tools\[0\] is not a tool or plugin/],
  ])('refuses bad options with a message that says what to fix (%#)', (options, kind, message) => {
    expect(() => createMcpServer(options as never)).toThrow(kind)
    expect(() => createMcpServer(options as never)).toThrow(message)
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
