/**
 * `@mcp-bridge/runtime/errors`: every error class the library defines is exported there (and only
 * there among the public entries), each with a distinct stable code, none of them pulling server
 * code into a browser bundle; `isMcpBridgeError` tells them apart by code, across copies of the
 * library, and narrows to the class.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as errors from '../../src/errors.ts'
import type * as BaseModule from '../../src/errors/mcp-bridge-error.ts'
import { isMcpBridgeError, McpBridgeError, OptionsError, StoreUnavailableError, TooManyCallsError } from '../../src/errors.ts'

const src = join(dirname(fileURLToPath(import.meta.url)), '../../src')
const sources = (readdirSync(src, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f))
/** Every `export class X extends …Error` in the sources. */
const defined = sources.flatMap((f) =>
  [...readFileSync(join(src, f), 'utf8').matchAll(/^export (?:abstract )?class (\w+) extends (?:McpBridgeError|ToolProblemError)\b/gm)].map((m) => m[1]!),
)

describe('the errors entry', () => {
  it('exports every error class the library defines, each from errors/, with a distinct code', () => {
    expect(defined.length).toBeGreaterThan(55)
    expect(defined.filter((name) => !(name in errors))).toEqual([])
    const homes = sources.filter((f) => /^export (?:abstract )?class \w+ extends (?:McpBridgeError|ToolProblemError)\b/m.test(readFileSync(join(src, f), 'utf8')))
    expect(homes.filter((f) => !f.startsWith('errors/'))).toEqual([])
    const codes = sources.flatMap((f) => [...readFileSync(join(src, f), 'utf8').matchAll(/^ {2}readonly code = '([A-Z_0-9]+)'/gm)].map((m) => m[1]!))
    expect(new Set(codes).size).toBe(codes.length)
  })

  it('is the only public entry exporting them, and `.` stays what a tool author writes (at most 25 values)', async () => {
    for (const entry of ['index', 'server', 'client', 'mcp', 'app-view', 'testing', 'react', 'ai-sdk', 'ai-sdk-react']) {
      const values = Object.keys(await import(`../../src/${entry}.ts`))
      expect(
        values.filter((name) => name.endsWith('Error')),
        entry,
      ).toEqual([])
      if (entry === 'index') expect(values.length).toBeLessThanOrEqual(25)
    }
  })

  it('imports nothing but other error modules (safe in a browser bundle)', () => {
    for (const f of sources.filter((f) => f.startsWith('errors/') && !['errors/human-issues.ts', 'errors/issues.ts'].includes(f))) {
      const imports = [...readFileSync(join(src, f), 'utf8').matchAll(/^import (?!type)[^\n]* from '([^']+)'/gm)].map((m) => m[1]!)
      expect(
        imports.filter((spec) => !spec.startsWith('./')),
        f,
      ).toEqual([])
    }
  })
})

describe('isMcpBridgeError', () => {
  it('tells an error of the library by its code, and anything else apart', () => {
    const tooMany = new TooManyCallsError(3, 'limits.maxCalls')
    expect(isMcpBridgeError(tooMany)).toBe(true)
    expect(isMcpBridgeError(tooMany, 'TOO_MANY_CALLS')).toBe(true)
    expect(isMcpBridgeError(tooMany, 'STORE_UNAVAILABLE')).toBe(false)
    expect(isMcpBridgeError(new Error('plain'))).toBe(false)
    expect(isMcpBridgeError({ code: 'TOO_MANY_CALLS', message: 'a look-alike' }, 'TOO_MANY_CALLS')).toBe(false)
    expect(isMcpBridgeError(undefined)).toBe(false)
    expect(isMcpBridgeError('TOO_MANY_CALLS')).toBe(false)
  })

  it('holds where instanceof does not: an error made by another copy of the library (a dev server that loaded it twice)', async () => {
    // A second copy of the base class, as Vite's pre-bundled browser copy beside its SSR copy would be.
    const copy = `${pathToFileURL(join(src, 'errors/mcp-bridge-error.ts')).href}?copy`
    const other = (await import(/* @vite-ignore */ copy)) as typeof BaseModule
    class OtherStoreUnavailableError extends other.McpBridgeError {
      readonly code = 'STORE_UNAVAILABLE'
    }
    const foreign = new OtherStoreUnavailableError('The redis call store did not answer')
    expect(foreign).not.toBeInstanceOf(McpBridgeError)
    expect(foreign).not.toBeInstanceOf(StoreUnavailableError)
    expect(isMcpBridgeError(foreign, 'STORE_UNAVAILABLE')).toBe(true)
  })

  it('narrows to the class of the code, so its own fields are there without a cast', () => {
    const error: unknown = new OptionsError('createMcpServer', { option: 'limits.maxCalls', problem: 'takes a positive integer' })
    if (isMcpBridgeError(error, 'INVALID_OPTIONS')) {
      expectTypeOf(error).toEqualTypeOf<OptionsError>()
      expect(error.options).toEqual(['limits.maxCalls'])
    } else expect.unreachable('an OptionsError is INVALID_OPTIONS')
    if (isMcpBridgeError(error)) expectTypeOf(error).toExtend<McpBridgeError>()
    // @ts-expect-error: not a code of the library
    isMcpBridgeError(error, 'NO_SUCH_CODE')
  })
})
