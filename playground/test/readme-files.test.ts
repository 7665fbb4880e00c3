/**
 * A code block of the README or a docs page that names a repository file on its first line
 * (`// playground/…`, `// adoption/app/…`, `// conformance/…`) shows that file as it is: the snippet
 * is the code the e2e and adoption tests run, so it cannot drift from it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const pages = [
  'README.md',
  ...(readdirSync(resolve(root, 'docs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md') && !f.startsWith('api')).map((f) => `docs/${f}`),
]
const readme = pages.map((page) => readFileSync(resolve(root, page), 'utf8')).join('\n')
const blocks = [...readme.matchAll(/```\w*\n\/\/ ((?:playground|adoption|conformance)\/\S+)\n([\s\S]*?)```/g)].map(([, path, body]) => ({ path: path!, body: body! }))

describe('README and docs snippets that name a repository file', () => {
  it('exist', () => {
    expect(blocks.map((b) => b.path)).toEqual(
      expect.arrayContaining([
        'playground/src/tools/reserve-table/plugin.tsx',
        'adoption/app/vite.config.ts',
        'adoption/app/src/tools/greet/tool.ts',
        'adoption/app/src/tools/greet/plugin.tsx',
        'adoption/app/src/server/app.ts',
        'adoption/app/src/App.tsx',
        'conformance/oauth-app.ts',
        'playground/src/server/telemetry.ts',
        'adoption/react-router-7-express/server/app.ts',
      ]),
    )
  })

  it.each(blocks.map((b) => [b.path, b.body] as const))('%s is shown as it is', (path, body) => {
    expect(body).toBe(readFileSync(resolve(root, path), 'utf8'))
  })
})

describe("the packages' READMEs (what npm shows)", () => {
  it.each(['runtime', 'vite-plugin'])('%s: its code blocks that name a repository file show it as it is', (pkg) => {
    const text = readFileSync(resolve(root, 'packages', pkg, 'README.md'), 'utf8')
    for (const [, path, body] of text.matchAll(/```\w*\n\/\/ ((?:playground|adoption|conformance)\/\S+)\n([\s\S]*?)```/g)) {
      expect(body).toBe(readFileSync(resolve(root, path!), 'utf8'))
    }
    expect(text).toMatch(/MIT licensed\./)
  })
})

describe("docs (MCP Apps), in the playground's own words", () => {
  const section = readFileSync(resolve(root, 'docs/guide/mcp-apps.md'), 'utf8')
  const file = (path: string) => readFileSync(resolve(root, path), 'utf8')

  it('the option and the server wiring are the ones the playground runs (its MCP Apps tests exercise them)', () => {
    expect(section).toContain("import { appViews, serverPrompts, serverResources, serverTools } from '../mcp-bridge/server.gen.ts'")
    expect(file('playground/src/server/app.ts')).toContain("import { appViews, serverPrompts, serverResources, serverTools } from '../mcp-bridge/server.gen.ts'")
    expect(section).toContain('apps: { views: appViews }')
    expect(file('playground/src/server/app.ts')).toContain('apps: { views: appViews }')
    expect(section).toContain("apps: { include: ['src/styles.css'] }")
    expect(file('playground/vite.config.ts')).toContain("apps: { include: ['src/styles.css'] }")
    expect(section).toContain('../screenshots/mcp-apps-flight-list.png')
  })
})

describe('docs (Tools): A plain MCP form, as the playground writes it', () => {
  it("the .plainForm({...}) shown is reserve_table's, which plain-form.test.ts completes with SDK clients", () => {
    const tools = readFileSync(resolve(root, 'docs/guide/tools.md'), 'utf8')
    const section = tools.slice(tools.indexOf('## A plain MCP form'))
    const shown = /\n {2}\.plainForm\(\{\n[\s\S]*?\n {2}\}\)\n/.exec(section)?.[0]
    expect(shown).toBeDefined()
    expect(readFileSync(resolve(root, 'playground/src/tools/reserve-table/tool.ts'), 'utf8')).toContain(shown)
  })
})
