/**
 * The split transform per environment, snapshotted: the client loses `.execute(...)` and the
 * imports only it used; the server loses the `onElicit` handlers and the React component.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { splitModule } from '../src/core/split.ts'

const app = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../fixtures/split-app/src')
const read = (f: string) => readFileSync(resolve(app, f), 'utf8')

describe('split', () => {
  it('client: stubs execute() and drops the server-only import', () => {
    const out = splitModule(read('tool.ts'), 'tool.ts', 'client')!
    expect(out.code).toMatchSnapshot()
    expect(out.removed).toEqual({ steps: ['execute'], imports: ['lookupFlights', 'SERVER_SECRET'], sources: ['./server-only.ts'] })
    expect(out.code).not.toContain('server-only')
    expect(out.code).toContain("import { z } from 'zod'")
    expect(out.map.mappings.length).toBeGreaterThan(0)
  })

  it('server: stubs onElicit handlers (keys kept) and drops the component import', () => {
    const out = splitModule(read('plugin.tsx'), 'plugin.tsx', 'server')!
    expect(out.code).toMatchSnapshot()
    expect(out.removed).toEqual({ steps: ['onElicit'], imports: ['Picker'], sources: ['./components/Picker.tsx'] })
    expect(out.code).toContain('choose: () => { throw new Error(')
    expect(out.code).toContain("import { pickFlight } from './tool.ts'")
  })

  it('leaves the other side alone, and files without tools untouched', () => {
    expect(splitModule(read('tool.ts'), 'tool.ts', 'server')).toBeUndefined()
    expect(splitModule(read('plugin.tsx'), 'plugin.tsx', 'client')).toBeUndefined()
    expect(splitModule(read('server-only.ts'), 'server-only.ts', 'client')).toBeUndefined()
  })

  it('keeps an import that is still used outside the cut', () => {
    const code = [
      "import { createMcpTool } from '@mcp-bridge/runtime'",
      "import { helper, other } from './helpers.ts'",
      "export const t = createMcpTool('t').elicits({}).execute(function* () { return helper() + other() })",
      'export const label = helper.name',
    ].join('\n')
    const out = splitModule(code, 't.ts', 'client')!
    expect(out.removed.imports).toEqual(['other'])
    expect(out.code).toContain("import { helper } from './helpers.ts'")
  })
})
