/** The plugin and the runtime are released together: a runtime of another release is refused, saying what to install. */
import { describe, expect, it } from 'vitest'
import { RuntimeVersionMismatchError } from '../src/core/errors.ts'
import { assertRuntimePairs, pairs } from '../src/core/runtime-version.ts'

describe('the runtime paired with the plugin', () => {
  it('pairs the same minor at 0.x and the same major from 1.0', () => {
    expect(pairs('0.2.0', '0.2.5')).toBe(true)
    expect(pairs('0.2.3', '0.2.0')).toBe(true)
    expect(pairs('0.2.0', '0.1.9')).toBe(false)
    expect(pairs('0.2.0', '0.20.0')).toBe(false)
    expect(pairs('1.4.0', '1.0.2')).toBe(true)
    expect(pairs('1.4.0', '2.0.0')).toBe(false)
  })

  it('says what to install when they do not pair', () => {
    const error = new RuntimeVersionMismatchError('0.2.0', '0.1.0')
    expect(error.code).toBe('RUNTIME_VERSION_MISMATCH')
    expect(error.message).toBe(
      '@mcp-bridge/vite-plugin 0.2.0 needs @mcp-bridge/runtime 0.2.x, and this app has 0.1.0. The two are released together: npm install @mcp-bridge/runtime@0.2.0 @mcp-bridge/vite-plugin@0.2.0',
    )
  })

  it("the workspace's own pair passes", () => {
    expect(() => assertRuntimePairs()).not.toThrow()
  })
})
