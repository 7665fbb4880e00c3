/**
 * The pieces of MCP Apps views that need no build: the option, what `server.gen.ts` exports,
 * the page a view's bundle becomes, the entry of a view build, and where the built server looks
 * for the views. (The build itself runs in the playground's tests: Chromium and stdio.)
 */
import { describe, expect, it } from 'vitest'
import type { Rolldown } from 'vite'
import { resolveOptions } from '../src/core/options.ts'
import { renderServerRegistry, type Manifest } from '../src/core/codegen.ts'
import { assembleViewHtml, viewEntryCode } from '../src/view-build.ts'
import { placeViewsDir } from '../src/app-views-build.ts'
import { VIEWS_DIR_PLACEHOLDER } from '../src/app-views.ts'

const chunk = (code: string): Rolldown.OutputChunk => ({ type: 'chunk', isEntry: true, code, fileName: 'x.js' }) as Rolldown.OutputChunk
const css = (source: string): Rolldown.OutputAsset => ({ type: 'asset', fileName: 'style.css', source }) as Rolldown.OutputAsset

describe('MCP Apps views', () => {
  it('resolves apps: true, and include paths against the root', () => {
    expect(resolveOptions({}, '/app').apps).toBeUndefined()
    expect(resolveOptions({ apps: false }, '/app').apps).toBeUndefined()
    expect(resolveOptions({ apps: true }, '/app').apps).toEqual({ include: [] })
    expect(resolveOptions({ apps: { include: 'src/styles.css' } }, '/app').apps).toEqual({ include: ['/app/src/styles.css'] })
  })

  it('server.gen.ts exports appViews for the tools with a plugin (paths relative to it), and nothing without apps', () => {
    const tools = [{ name: 'b', file: '/app/src/tools/b.ts', exportName: 'b' }]
    const withViews = renderServerRegistry('/app/src/mcp-bridge', tools, { root: '/app', include: ['/app/src/styles.css'], tools: ['b', 'a'] })
    expect(withViews).toContain("import { appViewsOf } from '@mcp-bridge/vite-plugin/app-views'")
    expect(withViews).toContain('export const appViews = appViewsOf(import.meta.url, {"root":"../..","tools":["a","b"],"include":["src/styles.css"]})')
    expect(renderServerRegistry('/app/src/mcp-bridge', tools)).not.toContain('appViews')
  })

  it('inlines the script and the styles into one page, where a "</script" in the code cannot end the script', () => {
    const html = assembleViewHtml('book_flight', { 'x.js': chunk('console.log("</script><b>")'), 'style.css': css('.a{color:red}') })
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('.a{color:red}')
    expect(html.match(/<script/g)).toHaveLength(1)
    expect(html).toContain('console.log("<\\/script><b>")')
    expect(html).not.toMatch(/<script[^>]+src=|<link/)
    expect(() => assembleViewHtml('t', { 'a.js': chunk('1'), 'b.js': { ...chunk('2'), isEntry: false } as Rolldown.OutputChunk })).toThrow(/must build to one script; got 2/)
  })

  it("a view's entry imports the includes, the plugin by its export, and mounts it; a tool without a plugin has none", () => {
    const manifest = {
      tools: [
        { name: 'a', plugin: { file: 'src/a/plugin.tsx', line: 1, column: 1, export: 'aPlugin' } },
        { name: 'b', plugin: null },
      ],
    } as unknown as Manifest
    expect(viewEntryCode('/app', manifest, { tool: 'a', include: ['/app/src/styles.css'] }).split('\n')).toEqual([
      'import "/app/src/styles.css"',
      "import { mountMcpAppView } from '@mcp-bridge/runtime/app-view'",
      'import { aPlugin as plugin } from "/app/src/a/plugin.tsx"',
      'mountMcpAppView(plugin.client)',
      '',
    ])
    expect(() => viewEntryCode('/app', manifest, { tool: 'b', include: [] })).toThrow(/no view can be built for "b": it has no plugin/)
    expect(() => viewEntryCode('/app', manifest, { tool: 'c', include: [] })).toThrow(/"c": no such tool in the manifest/)
  })

  it('the built server reads the views from <outDir>/mcp-apps/, from whichever chunk holds the reader', () => {
    const code = `new URL(${JSON.stringify(VIEWS_DIR_PLACEHOLDER)}, import.meta.url)`
    expect(placeViewsDir(code, 'assets/app-x.js', '/o/dist/server')).toBe('new URL("../../mcp-apps/", import.meta.url)')
    expect(placeViewsDir(code, 'app.js', '/o/dist/server')).toBe('new URL("../mcp-apps/", import.meta.url)')
    expect(placeViewsDir('no placeholder', 'app.js', '/o/dist/server')).toBeUndefined()
  })
})
