/**
 * The docs site as a reader gets it: `npm run docs:build`'s steps (the API reference generated
 * from TSDoc, then VitePress), which fail on a dead link; every built page opened in headless
 * Chromium with no console error and no failed request; the troubleshooting page naming every
 * diagnostic code and schema rule the tools report; the README kept to the pitch and the links.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChildProcess } from 'node:child_process'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exec, freePort, start, stop } from '../../adoption/test/commands.ts'
import { launchChromium } from '../../playground/test/support/browser.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const vitepress = join(root, 'node_modules/vitepress/bin/vitepress.js')
const dist = join(root, 'docs/.vitepress/dist')
const scratch: string[] = []
let build: { code: number | null; output: string }
let preview: ChildProcess | undefined
let browser: Browser | undefined

beforeAll(async () => {
  const api = await exec(process.execPath, [join(root, 'scripts/docs-api.mjs')], { cwd: root, timeoutMs: 240_000 })
  expect(api.code, api.output).toBe(0)
  build = await exec(process.execPath, [vitepress, 'build', 'docs'], { cwd: root, timeoutMs: 240_000 })
}, 500_000)

afterAll(async () => {
  await browser?.close()
  if (preview) await stop(preview)
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
}, 60_000)

describe('the docs site', () => {
  it('builds: guide, reference and the API reference of both packages', () => {
    expect(build.code, build.output).toBe(0)
    expect(build.output).not.toMatch(/dead link|warn/i)
    for (const page of [
      'index.html',
      'guide/getting-started.html',
      'guide/ai-sdk.html',
      'reference/troubleshooting.html',
      'api/runtime/ai-sdk.html',
      'api/vite-plugin/core.html',
    ]) {
      expect(readFileSync(join(dist, page), 'utf8'), page).toContain('<h1')
    }
  })

  it('a dead link fails the build, naming it', async () => {
    mkdirSync(join(root, 'node_modules/.cache'), { recursive: true })
    const copy = mkdtempSync(join(root, 'node_modules/.cache/docs-dead-link-'))
    scratch.push(copy)
    cpSync(join(root, 'docs'), join(copy, 'docs'), { recursive: true, filter: (src) => !/[\\/]\.vitepress[\\/](dist|cache)([\\/]|$)/.test(src) })
    const page = join(copy, 'docs/guide/concepts.md')
    writeFileSync(page, `${readFileSync(page, 'utf8')}\nSee [the old page](./no-such-page.md).\n`)
    const broken = await exec(process.execPath, [vitepress, 'build', 'docs'], { cwd: copy, timeoutMs: 240_000 })
    expect(broken.code).not.toBe(0)
    expect(broken.output).toContain('Found dead link ./no-such-page in file guide/concepts.md')
  }, 300_000)

  it('every page opens in Chromium with no console error and no failed request', async () => {
    const port = await freePort()
    preview = await start(process.execPath, [vitepress, 'preview', 'docs', '--port', String(port)], { cwd: root, ready: String(port), timeoutMs: 60_000 })
    browser = await launchChromium()
    const pages = (readdirSync(dist, { recursive: true }) as string[]).filter((f) => f.endsWith('.html') && f !== '404.html').map((f) => `/${f.replace(/(index)?\.html$/, '')}`)
    expect(pages.length).toBeGreaterThan(25)
    const page = await browser.newPage()
    const problems: string[] = []
    page.on('console', (m) => void (m.type() === 'error' && problems.push(`${page.url()}: ${m.text()}`)))
    page.on('pageerror', (e) => void problems.push(`${page.url()}: ${String(e)}`))
    page.on('response', (r) => void (r.status() >= 400 && problems.push(`${r.url()}: ${r.status()}`)))
    for (const path of pages) {
      await page.goto(`http://localhost:${port}${path}`, { waitUntil: 'load' })
      await page.locator('h1').first().waitFor()
    }
    expect(problems).toEqual([])
  }, 300_000)
})

describe("the API reference (TypeDoc's reflections, written by docs-api beside the pages)", () => {
  type Reflection = { name: string; kind: number; comment?: Comment; signatures?: Array<{ comment?: Comment }>; children?: Reflection[] }
  type Comment = { summary: Array<{ text: string }>; blockTags?: Array<{ tag: string }> }
  const FUNCTION = 64
  const REFERENCE = 4194304 // a re-export of something documented where it is declared

  it('documents every public export of both packages, and shows every function in an example', () => {
    const undocumented: string[] = []
    const withoutExample: string[] = []
    let exports = 0
    for (const pkg of ['runtime', 'vite-plugin']) {
      const project = JSON.parse(readFileSync(join(root, `.cache/typedoc/${pkg}.json`), 'utf8')) as Reflection
      for (const entry of project.children ?? []) {
        for (const exported of entry.children ?? []) {
          if (exported.kind === REFERENCE) continue
          exports += 1
          // A function's comment is on its signature; the entry's own comment is its module's.
          const comment = exported.kind === FUNCTION ? exported.signatures?.[0]?.comment : exported.comment
          const name = `@mcp-bridge/${pkg} ${entry.name}: ${exported.name}`
          if (
            !comment?.summary
              .map((part) => part.text)
              .join('')
              .trim()
          )
            undocumented.push(name)
          else if (exported.kind === FUNCTION && !comment.blockTags?.some((tag) => tag.tag === '@example')) withoutExample.push(name)
        }
      }
    }
    expect(exports).toBeGreaterThan(400)
    expect(undocumented).toEqual([])
    expect(withoutExample).toEqual([])
  })
})

describe('the troubleshooting page', () => {
  const page = readFileSync(join(root, 'docs/reference/troubleshooting.md'), 'utf8')
  const union = (file: string, type: string) => {
    const source = readFileSync(join(root, file), 'utf8')
    const body = source.slice(source.indexOf(`export type ${type} =`)).split(/\n\n/)[0]!
    return [...body.matchAll(/\| '([^']+)'/g)].map((m) => m[1]!)
  }

  it('explains every diagnostic code the plugin and the CLI report', () => {
    const codes = union('packages/vite-plugin/src/core/diagnostics.ts', 'DiagnosticCode')
    expect(codes.length).toBeGreaterThan(15)
    for (const code of codes) expect(page, code).toContain(`### ${code}\n`)
  })

  it('explains every schema rule', () => {
    const rules = union('packages/runtime/src/errors/violation.ts', 'ViolationRule')
    expect(rules.length).toBeGreaterThan(20)
    for (const rule of rules) expect(page, rule).toContain(`| \`${rule}\` |`)
  })
})

describe('code blocks that say which file they show', () => {
  it('show it as it is', () => {
    const pages = (readdirSync(join(root, 'docs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md') && !f.startsWith('api'))
    const blocks = pages.flatMap((page) =>
      [...readFileSync(join(root, 'docs', page), 'utf8').matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)```/g)].map((m) => ({ page, path: m[1]!, code: m[2]! })),
    )
    expect(blocks.length).toBeGreaterThan(5)
    for (const block of blocks) expect(block.code, `${block.page} shows ${block.path}`).toBe(readFileSync(join(root, block.path), 'utf8'))
  })
})

describe('the README', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const start = readFileSync(join(root, 'docs/guide/getting-started.md'), 'utf8')
  const block = (text: string, heading: string) => /```sh\n([\s\S]*?)```/.exec(text.slice(text.indexOf(heading)))?.[1]

  it('is the pitch, the quick start, the install and the links: at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250)
  })

  it('says the quick start and the install line as Getting started does', () => {
    for (const heading of ['## Quick start', '## Install']) {
      expect(block(readme, heading), heading).toBeDefined()
      expect(block(readme, heading), heading).toBe(block(start, heading))
    }
  })

  it('links to every guide and reference page', () => {
    const docs = (readdirSync(join(root, 'docs'), { recursive: true }) as string[]).filter((f) => /^(guide|reference)[\\/].*\.md$/.test(f))
    for (const page of docs) expect(readme, page).toContain(`(docs/${page.replace(/\\/g, '/')})`)
  })
})
