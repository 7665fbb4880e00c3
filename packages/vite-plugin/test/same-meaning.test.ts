/**
 * A generated file the app's formatter touched is still current: prettier's usual changes
 * (semicolons, quotes, wrapping, trailing commas) and JSON re-indentation change nothing, while
 * a real change (another tool, another order, a missing header) still does.
 */
import { describe, expect, it } from 'vitest'
import { renderClientRegistry, renderServerRegistry } from '../src/core/codegen.ts'
import { essence, sameMeaning } from '../src/core/same-meaning.ts'

const tools = [
  { name: 'book_flight', file: '/app/src/tools/book.ts', exportName: 'bookFlight' },
  { name: 'rate_trip', file: '/app/src/tools/rate.ts', exportName: 'rateTrip' },
]
const server = renderServerRegistry('/app/src/mcp-bridge', tools)

/** What prettier with `semi: true, singleQuote: false, trailingComma: 'all', printWidth: 40` makes of a file, roughly. */
function prettierish(code: string): string {
  return code
    .split('\n')
    .map((line) => (/^(import|export)\b.*[^{,;]$/.test(line) ? `${line};` : line))
    .join('\n')
    .replace(/'([^'\n]*)'/g, '"$1"')
    .replace(/\[(plugin0\.client)\]/, '[\n  $1,\n]')
}

describe('sameMeaning', () => {
  it("takes the app's formatting of a registry as the same registry", () => {
    const formatted = prettierish(server)
    expect(formatted).not.toBe(server)
    expect(sameMeaning('/app/src/mcp-bridge/server.gen.ts', formatted, server)).toBe(true)
    const client = renderClientRegistry('/app/src/mcp-bridge', [{ toolName: 'book_flight', file: '/app/src/tools/book-plugin.ts', exportName: 'bookPlugin' }])
    expect(sameMeaning('/app/src/mcp-bridge/client.gen.ts', prettierish(client), client)).toBe(true)
  })

  it('takes what eslint --fix does to a registry as the same registry: the header comment gone, imports and their names reordered', () => {
    const client = renderClientRegistry('/app/src/mcp-bridge', [
      { toolName: 'book_flight', file: '/app/src/tools/book-plugin.ts', exportName: 'bookPlugin' },
      { toolName: 'rate_trip', file: '/app/src/tools/rate-plugin.ts', exportName: 'ratePlugin' },
    ])
    expect(client).not.toContain('eslint-disable')
    const lines = client.split('\n').filter((l) => !l.startsWith('//'))
    const imports = lines.filter((l) => l.startsWith('import'))
    expect(imports.length).toBeGreaterThan(1)
    const fixed = [...imports.reverse(), ...lines.filter((l) => !l.startsWith('import'))].join('\n')
    expect(sameMeaning('/app/src/mcp-bridge/client.gen.ts', fixed, client)).toBe(true)
    // sort-imports sorting the names of one import; the order of the code after the imports still counts.
    expect(
      sameMeaning('/x/server.gen.ts', "import { b as y, a as x } from './m'\nexport const all = [x, y]", "import { a as x, b as y } from './m'\nexport const all = [x, y]"),
    ).toBe(true)
    expect(
      sameMeaning('/x/server.gen.ts', "import { a as x, b as y } from './m'\nexport const all = [y, x]", "import { a as x, b as y } from './m'\nexport const all = [x, y]"),
    ).toBe(false)
  })

  it('still sees a real change: another tool, another order, a string that differs', () => {
    const other = renderServerRegistry('/app/src/mcp-bridge', tools.slice(0, 1))
    expect(sameMeaning('/x/server.gen.ts', other, server)).toBe(false)
    const swapped = server.replace("'../tools/book'", "'../tools/rate'")
    expect(swapped).not.toBe(server)
    expect(sameMeaning('/x/server.gen.ts', swapped, server)).toBe(false)
    expect(essence(`const a = 'it\\'s'`)).toBe(essence(`const a = "it's";`))
    expect(essence('f(a, b,)')).toBe(essence('f(a, b)'))
    expect(essence('a b')).toBe(essence('a\n  b'))
  })

  it('compares the manifest as JSON', () => {
    const manifest = JSON.stringify({ formatVersion: 1, tools: [{ name: 'a' }] }, null, 2)
    expect(sameMeaning('/x/mcp-tools.json', JSON.stringify(JSON.parse(manifest), null, 4), manifest)).toBe(true)
    expect(sameMeaning('/x/mcp-tools.json', JSON.stringify({ formatVersion: 1, tools: [] }), manifest)).toBe(false)
    expect(sameMeaning('/x/mcp-tools.json', '{ broken', manifest)).toBe(false)
  })
})
