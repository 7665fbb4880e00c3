/**
 * One Chromium for a test file and a fresh page (its own context: its own localStorage, so its
 * own conversation) for each test. A page that throws fails its test; a failed test leaves a
 * screenshot in playground/test-results/. Pages stay open until the file ends, so a failure's
 * screenshot can still be taken.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import { launchChromium } from './browser.ts'

export interface PagePerTest {
  readonly browser: Browser
  /** This test's page. */
  readonly page: Page
  /** Every page opened so far (closed when the file ends). */
  readonly pages: Page[]
  /** Type a message into this test's chat and send it, as a person does. */
  send(text: string): Promise<void>
}

/** `home`: where each test's page starts (none: the test goes where it needs). */
export function usePagePerTest(results: string, home?: () => string): PagePerTest {
  let browser: Browser | undefined
  let page: Page | undefined
  const pages: Page[] = []
  beforeAll(async () => {
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    for (const p of pages) await p.close().catch(() => {})
    await browser?.close()
  })
  beforeEach(async (context) => {
    const current = await (await browser!.newContext({ viewport: { width: 900, height: 1000 } })).newPage()
    page = current
    pages.push(current)
    const errors: string[] = []
    current.on('pageerror', (e) => errors.push(e.message))
    ;(current as Page & { errors: string[] }).errors = errors
    context.onTestFailed(async () => {
      mkdirSync(results, { recursive: true })
      await current.screenshot({ path: join(results, `${context.task.name.replace(/[^\w-]+/g, '-')}.png`), fullPage: true }).catch(() => {})
    })
    if (home) await current.goto(home())
  })
  afterEach(() => {
    expect((page as Page & { errors: string[] }).errors).toEqual([])
  })
  return {
    get browser() {
      return browser!
    },
    get page() {
      return page!
    },
    pages,
    async send(text) {
      await page!.getByLabel('Message').fill(text)
      await page!.getByLabel('Message').press('Enter')
    },
  }
}
