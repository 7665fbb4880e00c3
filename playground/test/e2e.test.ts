/**
 * End-to-end: the playground served by its own dev server on 127.0.0.1, driven in headless
 * Debian Chromium through playwright-core. Every test saves a screenshot when it fails
 * (playground/test-results/); the booking test saves its page there too. The README's picture is
 * refreshed by `npm run docs:screenshot`, never by a test.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { launchChromium } from './support/browser.ts'
import { bookOsloToBerlin } from './support/booking.ts'
import { cleanEnv, freePort, run, startServer } from './support/processes.ts'

const playground = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const results = join(playground, 'test-results')

let server: ChildProcess | undefined
let browser: Browser
let base: string
let page: Page
const pages: Page[] = []

beforeAll(async () => {
  const port = await freePort()
  const vite = resolve(playground, '../node_modules/vite/bin/vite.js')
  // No real-model variables reach it, so the scripted demo model answers.
  const dev = await startServer([vite, '--strictPort', '--port', String(port)], {
    cwd: playground,
    env: cleanEnv(),
    ready: `127.0.0.1:${port}`,
    timeoutMs: 90_000,
    what: 'the playground dev server',
  })
  server = dev.child
  base = `http://127.0.0.1:${port}/`
  browser = await launchChromium()
  rmSync(results, { recursive: true, force: true })
  // Warm-up: the first load compiles the app (slow when the rest of the suite shares the CPU),
  // so it gets its own generous bound and the tests measure behaviour, not compilation.
  const warm = await browser.newPage()
  try {
    await warm.goto(base, { timeout: 60_000 })
    await warm.getByLabel('Message').waitFor({ timeout: 60_000 })
  } catch (error) {
    throw new Error(`The playground did not render in Chromium: ${(error as Error).message}\nDev server output:\n${dev.output().slice(-4000)}`)
  }
  await warm.close()
}, 240_000)

afterAll(async () => {
  // Pages stay open until here so a failed test's screenshot can still be taken.
  for (const p of pages) await p.close().catch(() => {})
  await browser?.close()
  server?.kill()
})

beforeEach(async (context) => {
  // A context per test: its own localStorage, so each test starts a new conversation.
  page = await (await browser.newContext({ viewport: { width: 900, height: 1000 } })).newPage()
  pages.push(page)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  ;(page as Page & { errors: string[] }).errors = errors
  context.onTestFailed(async () => {
    mkdirSync(results, { recursive: true })
    await page.screenshot({ path: join(results, `${context.task.name.replace(/[^\w-]+/g, '-')}.png`), fullPage: true }).catch(() => {})
  })
  await page.goto(base)
})

afterEach(() => {
  expect((page as Page & { errors: string[] }).errors).toEqual([])
})

async function send(text: string) {
  await page.getByLabel('Message').fill(text)
  await page.getByLabel('Message').press('Enter')
}

describe('playground in Chromium', () => {
  it('books a flight: message → flight list → seat picker → confirmation with the chosen seat', async () => {
    await bookOsloToBerlin(page)
    expect(await page.getByLabel('Booking confirmation').innerText()).toMatch(/TK-JS-501-3B[\s\S]*JetStream JS-501[\s\S]*3B[\s\S]*\$219/)
    mkdirSync(results, { recursive: true })
    await page.screenshot({ path: join(results, 'booking.png') })
  }, 60_000)

  it('a reload mid-seat-pick brings the chat and the seat map back, and the booking completes; a second tab sees it too', async () => {
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: /JetStream JS-501/ }).click()
    await page.getByRole('grid', { name: 'Cabin' }).waitFor()
    await page.reload()
    // Restored from the server: the message, the card with its logs, and the question still open.
    await page.getByRole('grid', { name: 'Cabin' }).waitFor({ timeout: 30_000 })
    expect(await page.locator('.bubble.user').allTextContents()).toEqual(['Book a flight from Oslo to Berlin'])
    const tool = page.getByRole('region', { name: 'Book a flight' })
    expect(await tool.getAttribute('data-status')).toBe('awaiting_input')
    // A second tab of the same browser opens the same conversation.
    const second = await page.context().newPage()
    pages.push(second)
    await second.goto(base)
    await second.getByRole('grid', { name: 'Cabin' }).waitFor({ timeout: 30_000 })
    await second.close()

    await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
    await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
    await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor()
    await page.reload()
    await page.getByLabel('Booking confirmation').waitFor({ timeout: 30_000 })
    expect(await page.getByRole('grid', { name: 'Cabin' }).count()).toBe(0)
    // New chat starts over, and stays empty after a reload.
    await page.getByRole('button', { name: 'New chat' }).click()
    await page.getByText('Try one of these:').waitFor()
    await page.reload()
    await page.getByText('Try one of these:').waitFor({ timeout: 30_000 })
  }, 90_000)

  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`keeps the newest content visible above the composer (${name}); scrolled up, it stops following and offers a jump`, async () => {
      await page.setViewportSize(viewport)
      const composerTop = async () => (await page.locator('.composer').boundingBox())!.y
      const visibleAboveComposer = async (selector: string) => {
        const box = (await page.locator(selector).last().boundingBox())!
        return box.y >= 0 && box.y + box.height <= (await composerTop()) + 1
      }
      await send('Book a flight from Oslo to Berlin')
      await page.getByRole('button', { name: /JetStream JS-501/ }).click()
      await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
      // The seat map's Confirm, added below the grid, is in view.
      await page.waitForFunction(() => {
        const confirm = [...document.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Confirm seat'))
        const composer = document.querySelector('.composer')!.getBoundingClientRect()
        return confirm && confirm.getBoundingClientRect().bottom <= composer.top + 1
      }, undefined, { timeout: 10_000 })
      await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
      await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor()
      await page.waitForFunction(() => {
        const bubbles = document.querySelectorAll('.bubble.assistant')
        const last = bubbles[bubbles.length - 1]!.getBoundingClientRect()
        return last.bottom <= document.querySelector('.composer')!.getBoundingClientRect().top + 1
      }, undefined, { timeout: 10_000 })
      expect(await visibleAboveComposer('.bubble.assistant')).toBe(true)
      expect(await page.getByRole('button', { name: /Jump to latest/ }).count()).toBe(0)

      // Scrolled up to read: new content does not pull the view down; a jump brings it back.
      // (First enough messages for the page to scroll at all.)
      for (let i = 0; i < 12 && (await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)) < 300; i++) {
        const replies = await page.locator('.bubble.assistant').count()
        await send('hello')
        await page.waitForFunction((n) => document.querySelectorAll('.bubble.assistant').length > n, replies, { timeout: 10_000 })
      }
      await page.evaluate(() => window.scrollTo(0, 0))
      await page.getByRole('button', { name: /Jump to latest/ }).waitFor()
      await send('Build a report')
      await page.getByText('Report with 5 sections is ready.').waitFor()
      expect(await page.evaluate(() => window.scrollY)).toBeLessThan(50)
      await page.getByRole('button', { name: /Jump to latest/ }).click()
      await page.waitForFunction(() => {
        const bubbles = document.querySelectorAll('.bubble.assistant')
        const last = bubbles[bubbles.length - 1]!.getBoundingClientRect()
        return last.bottom <= document.querySelector('.composer')!.getBoundingClientRect().top + 1 && last.bottom > 0
      }, undefined, { timeout: 10_000 })
      expect(await page.getByRole('button', { name: /Jump to latest/ }).count()).toBe(0)
      mkdirSync(results, { recursive: true })
      await page.screenshot({ path: join(results, `follow-latest-${name}.png`) })
    }, 90_000)
  }

  it('a message typed while a question is open: the composer says to answer first and keeps the draft; afterwards it sends', async () => {
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: /JetStream JS-501/ }).waitFor()
    await page.getByLabel('Message').fill('What about hotels?')
    await page.getByText('Answer or cancel the question above first.').waitFor()
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true)
    await page.getByLabel('Message').press('Enter')
    expect(await page.getByLabel('Message').inputValue()).toBe('What about hotels?')
    expect(await page.locator('.bubble.user').allTextContents()).toEqual(['Book a flight from Oslo to Berlin'])
    await page.getByRole('button', { name: /JetStream JS-501/ }).click()
    await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
    await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
    await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor()
    expect(await page.getByText('Answer or cancel the question above first.').count()).toBe(0)
    await page.getByRole('button', { name: 'Send' }).click()
    await page.locator('.bubble.user', { hasText: 'What about hotels?' }).waitFor()
  }, 60_000)

  it('plans a day with a handoff tool: the picker shows the call params and the before() lookup, which ran once', async () => {
    await send('Plan a day in Oslo')
    const picker = page.getByRole('region', { name: 'Activity picker' })
    await picker.waitFor()
    const shown = await picker.innerText()
    expect(shown).toMatch(/A day in Oslo · 2026-12-05/) // the call's params
    expect(shown).toMatch(/4 activities found by lookup LK-[0-9a-f]{8}/) // the handoff value from before()
    const lookupId = /LK-[0-9a-f]{8}/.exec(shown)![0]
    mkdirSync(results, { recursive: true })
    await picker.screenshot({ path: join(results, 'plan-trip-picker.png') })
    await page.getByRole('button', { name: /Oslo harbour boat tour/ }).click()
    await page.getByText(`Reserved: Oslo harbour boat tour (reservation ${lookupId}/OSL-harbour).`).waitFor()
    // before() ran once: after() reserved with the lookup the picker showed, and one lookup was logged.
    const tool = page.getByRole('region', { name: 'Plan a day out' })
    expect(await tool.getAttribute('data-status')).toBe('completed')
    expect(await tool.locator('.logs li').allTextContents()).toEqual([`[info] Looked up 4 activities in Oslo (${lookupId})`])
    await page.screenshot({ path: join(results, 'plan-trip.png') })
  }, 60_000)

  it('declines at the flight list', async () => {
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: 'Not now' }).click()
    await page.getByText('No booking made. You declined the flights.').waitFor()
    // Declined, not "completed": the card says how the user left it, and keeps the record.
    const tool = page.getByRole('region', { name: 'Book a flight' })
    expect(await tool.getAttribute('data-status')).toBe('declined')
    expect(await tool.locator('.tool-status').innerText()).toBe('Declined')
    expect(await tool.getByRole('list', { name: 'Your answers' }).innerText()).toBe('Declined')
  }, 60_000)

  it('cancels mid-flow: the tool stops and its UI goes away', async () => {
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: /SkyHigh/ }).click()
    await page.getByRole('grid', { name: 'Cabin' }).waitFor()
    await page.getByRole('button', { name: 'Cancel Book a flight' }).click()
    await page.getByText(/book_flight did not finish: The user cancelled this tool call/).waitFor()
    expect(await page.getByRole('grid', { name: 'Cabin' }).count()).toBe(0)
    expect(await page.getByRole('region', { name: 'Book a flight' }).getAttribute('data-status')).toBe('cancelled')
  }, 60_000)

  it('a refused answer keeps what the user typed; the error of a field goes when that field is edited', async () => {
    await send('Pick a theme color')
    await page.getByLabel('Hex color').fill('blue')
    await page.getByLabel('Name (optional)').fill('Sky '.repeat(11))
    await page.getByRole('button', { name: 'Use this color' }).click()
    const alerts = () => page.getByRole('region', { name: 'Color picker' }).getByRole('alert').allTextContents()
    await page.getByText('Use a hex color like #3b82f6').waitFor()
    expect(await alerts()).toEqual(['Use a hex color like #3b82f6', 'Use at most 40 characters.'])
    // The same component, still holding what was typed.
    expect(await page.getByLabel('Hex color').inputValue()).toBe('blue')
    expect(await page.getByLabel('Name (optional)').inputValue()).toBe('Sky '.repeat(11))
    await page.getByLabel('Hex color').fill('#10b981')
    expect(await alerts()).toEqual(['Use at most 40 characters.'])
    await page.getByLabel('Name (optional)').fill('Sea')
    expect(await alerts()).toEqual([])
    await page.getByRole('button', { name: 'Use this color' }).click()
    await page.getByText(/#10b981/).first().waitFor()
  }, 60_000)

  it('color picker: #12345g is refused in the picker and never sent, #3b82f6 is accepted', async () => {
    const answers: string[] = []
    page.on('request', (r) => r.url().endsWith('/api/chat') && (r.postData() ?? '').includes('elicitResponses') && answers.push(r.postData()!))
    await send('Pick a theme color')
    await page.getByLabel('Hex color').fill('#12345g')
    await page.getByRole('button', { name: 'Use this color' }).click()
    expect(await page.getByRole('alert').first().innerText()).toBe('Use a hex color like #3b82f6')
    expect(answers).toEqual([])
    await page.getByLabel('Hex color').fill('#3b82f6')
    await page.getByRole('button', { name: 'Use this color' }).click()
    await page.getByText('Great choice: #3b82f6.').waitFor()
    expect(answers).toHaveLength(1)
    expect(answers[0]).toContain('"color":"#3b82f6"')
  }, 60_000)

  it('shows the fallback form for a tool without a plugin, with inline validation', async () => {
    await send('Rate my trip')
    await page.getByLabel(/^Stars/).fill('9')
    await page.getByRole('button', { name: 'Submit' }).click()
    expect(await page.getByRole('alert').first().innerText()).toBe('Must be at most 5')
    await page.getByLabel(/^Stars/).fill('4')
    expect(await page.getByRole('alert').count()).toBe(0) // the field's error goes as it is edited
    await page.getByLabel('wifi').check()
    await page.getByRole('button', { name: 'Submit' }).click()
    await page.getByText('Thanks for the 4-star rating!').waitFor()
  }, 60_000)

  it('lays the fallback form out as a form: checkboxes beside their text, the required mark on the label line, one primary action', async () => {
    await send('Rate my trip')
    const form = page.locator('.mcp-fallback-form')
    await form.waitFor()
    const checkbox = (await page.getByLabel('wifi').boundingBox())!
    const text = (await form.locator('label.mcp-choice', { hasText: 'wifi' }).boundingBox())!
    // One line: the box sits within the label's line, beside the text, not above it.
    expect(text.height).toBeLessThan(30)
    expect(checkbox.y).toBeGreaterThanOrEqual(text.y - 1)
    expect(checkbox.y + checkbox.height).toBeLessThanOrEqual(text.y + text.height + 1)
    const required = (await form.locator('.mcp-required').first().boundingBox())!
    const labelText = (await form.locator('.mcp-label-text').first().boundingBox())!
    expect(required.height).toBeLessThanOrEqual(labelText.height)
    expect(required.y).toBeGreaterThanOrEqual(labelText.y - 1)
    const background = (name: string) => form.getByRole('button', { name, exact: true }).evaluate((b) => getComputedStyle(b).backgroundColor)
    expect(await background('Decline')).toBe('rgb(255, 255, 255)')
    expect(await background('Cancel')).toBe('rgb(255, 255, 255)')
    expect(await background('Submit')).not.toBe('rgb(255, 255, 255)')
  }, 60_000)

  it('wraps one long unbroken token instead of widening the page', async () => {
    await send('x'.repeat(5_000))
    await page.locator('.bubble.user').waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(await page.evaluate(() => window.innerWidth))
  }, 60_000)

  it('shows live progress and logs for a plain tool', async () => {
    await send('Build a report')
    await page.getByText('Report with 5 sections is ready.').waitFor()
    expect(await page.locator('progress').last().getAttribute('value')).toBe('5')
    expect(await page.getByText('Logs (5)').count()).toBe(1)
  }, 60_000)

  for (const how of ['the Stop button', 'Escape'] as const) {
    it(`stops a running tool and the response with ${how}: the tool is cancelled, nothing more arrives, the chat goes on`, async () => {
      await send('Build a 20-step report')
      await page.getByText(/Section \d+ of 20/).waitFor()
      if (how === 'Escape') await page.keyboard.press('Escape')
      else await page.getByRole('button', { name: 'Stop' }).click()
      const tool = page.getByRole('region', { name: 'Build a report' })
      await page.waitForFunction(() => document.querySelector('[aria-label="Build a report"]')?.getAttribute('data-status') === 'cancelled', undefined, { timeout: 10_000 })
      await page.getByRole('button', { name: 'Send' }).waitFor()
      const stoppedAt = Number(await tool.locator('progress').getAttribute('value'))
      await page.waitForTimeout(3_500) // 20 steps take 3 s: nothing may move meanwhile
      expect(Number(await tool.locator('progress').getAttribute('value'))).toBe(stoppedAt)
      expect(await page.getByText(/Report with 20 sections/).count()).toBe(0)
      await send('Pick a theme color')
      await page.getByLabel('Hex color').waitFor()
    }, 60_000)
  }

  it('Cancel stops a running report at once: progress stops, the result never arrives', async () => {
    await send('Build a 20-step report')
    await page.getByText(/Section \d+ of 20/).waitFor()
    await page.getByRole('button', { name: 'Cancel Build a report' }).click()
    await page.getByText(/Sorry, build_report did not finish/).waitFor()
    const tool = page.getByRole('region', { name: 'Build a report' })
    expect(await tool.getAttribute('data-status')).toBe('cancelled')
    const stoppedAt = Number(await tool.locator('progress').getAttribute('value'))
    expect(stoppedAt).toBeLessThan(20)
    // 20 steps take 3 s; wait past that and check nothing moved.
    await page.waitForTimeout(3_500)
    expect(Number(await tool.locator('progress').getAttribute('value'))).toBe(stoppedAt)
    expect(await page.getByText(/Report with 20 sections/).count()).toBe(0)
    mkdirSync(results, { recursive: true })
    await page.screenshot({ path: join(results, 'report-cancelled.png') })
  }, 60_000)

  it('after a reload during an elicitation the question is back, can be cancelled, and the chat goes on', async () => {
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: /JetStream JS-501/ }).waitFor()
    await page.reload()
    await page.getByRole('button', { name: /JetStream JS-501/ }).waitFor({ timeout: 30_000 })
    expect(await page.getByRole('status').innerText()).toBe('Waiting for you')
    await page.getByRole('button', { name: 'Cancel Book a flight' }).click()
    await page.getByText(/book_flight did not finish: The user cancelled this tool call/).waitFor()
    await send('Pick a theme color')
    await page.getByLabel('Hex color').waitFor()
  }, 60_000)
})

describe('chat experience', () => {
  it('renders model markdown (bold, lists, links, code blocks) and never the HTML in it: a <script> is shown as text', async () => {
    const hostile = 'Show markdown <script>window.__xss = 1</script> <img src=x onerror="window.__xss = 2">'
    await send(hostile)
    const reply = page.locator('.bubble.assistant').last()
    await reply.getByText(/You wrote:/).waitFor()
    expect(await reply.locator('strong').innerText()).toBe('bold')
    expect(await reply.locator('li').count()).toBe(2)
    const link = reply.getByRole('link', { name: 'a link' })
    expect([await link.getAttribute('href'), await link.getAttribute('target'), await link.getAttribute('rel')]).toEqual([
      'https://modelcontextprotocol.io',
      '_blank',
      'noopener noreferrer',
    ])
    expect((await reply.locator('pre code').innerText()).trim()).toBe('const answer = 42')
    expect(await reply.locator('script, img').count()).toBe(0)
    expect(await reply.innerText()).toContain('<script>window.__xss = 1</script>')
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined()
  }, 60_000)

  it('grows the message box with its text; Shift+Enter adds a line and Enter sends', async () => {
    const box = page.getByLabel('Message')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message') // focused on load
    const oneLine = (await box.boundingBox())!.height
    await box.pressSequentially('first line')
    await box.press('Shift+Enter')
    await box.pressSequentially('second line')
    await box.press('Shift+Enter')
    await box.pressSequentially('third line')
    expect((await box.boundingBox())!.height).toBeGreaterThan(oneLine * 1.8)
    await box.press('Enter')
    const bubble = page.locator('.bubble.user')
    await bubble.waitFor()
    expect(await bubble.innerText()).toBe('first line\nsecond line\nthird line')
    expect(await box.inputValue()).toBe('')
    expect((await box.boundingBox())!.height).toBeLessThanOrEqual(oneLine + 1)
  }, 60_000)

  it("a tool card shows the tool's title, keeps a one-line record of each answer, and says Sending while an answer is in flight", async () => {
    // Hold the answer to the seat question for a moment, as a slow network would.
    await page.route('**/api/chat', async (route) => {
      if ((route.request().postData() ?? '').includes('"row":3')) await new Promise((r) => setTimeout(r, 1_500))
      await route.continue()
    })
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: /JetStream JS-501/ }).click()
    await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
    await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
    const tool = page.getByRole('region', { name: 'Book a flight' })
    await tool.getByRole('status').filter({ hasText: 'Sending your answer…' }).waitFor()
    expect(await tool.getByRole('button', { name: 'Confirm seat 3B' }).isDisabled()).toBe(true)
    await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor({ timeout: 15_000 })
    expect(await tool.locator('.tool-title').innerText()).toBe('Book a flight')
    expect(await tool.locator('.tool-status').innerText()).toBe('Completed')
    expect(await tool.getByRole('list', { name: 'Your answers' }).getByRole('listitem').allInnerTexts()).toEqual(['✓ Flight id: JS-501', '✓ Row: 3 · Seat: B'])
    expect(await tool.getByRole('grid').count()).toBe(0)
  }, 60_000)

  it('per-key fallback: reserve_table asks the time in its own component and the details in the generated form', async () => {
    await send('Reserve a table for dinner')
    await page.getByRole('button', { name: '19:00', exact: true }).click()
    const tool = page.getByRole('region', { name: 'Reserve a table' })
    const form = tool.locator('.mcp-fallback-form')
    await form.getByText('A table at Luigi’s at 19:00: who is coming?').waitFor()
    await form.getByRole('button', { name: 'Submit' }).click()
    expect(await form.getByRole('alert').count()).toBeGreaterThan(0) // required fields, checked before sending
    await form.getByLabel(/^Guests/).fill('12')
    await form.getByLabel(/^Name/).fill('Ada')
    await form.getByRole('button', { name: 'Submit' }).click()
    expect(await form.getByRole('alert').allInnerTexts()).toEqual(['Must be at most 8'])
    expect(await form.getByLabel(/^Name/).inputValue()).toBe('Ada') // kept
    await form.getByLabel(/^Guests/).fill('4')
    await form.getByRole('button', { name: 'Submit' }).click()
    await page.getByText('Your table for 4 at Luigi’s is booked for 19:00, under Ada.').waitFor()
    expect(await tool.getByRole('list', { name: 'Your answers' }).getByRole('listitem').allInnerTexts()).toEqual([
      '✓ Time: 19:00',
      '✓ Guests: 4 · Name: Ada · High chair: No',
    ])
  }, 60_000)

  it('is a log that speaks: speaker labels, focus goes to a new question and back to the composer when done', async () => {
    const log = page.getByRole('log', { name: 'Conversation' })
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: /JetStream JS-501/ }).waitFor()
    // The new question has the focus: its first control.
    await page.waitForFunction(() => document.activeElement?.closest('[aria-label="Flights"]') !== null, undefined, { timeout: 10_000 })
    expect(await log.locator('.sr-only').allTextContents()).toEqual(['You: ', 'Assistant: '])
    await page.keyboard.press('Enter') // the focused first flight
    await page.waitForFunction(() => document.activeElement?.closest('[aria-label="Seat map"]') !== null, undefined, { timeout: 10_000 })
    await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
    await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
    await page.getByText(/You're booked!/).waitFor()
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message', undefined, { timeout: 10_000 })
    // A visible focus ring: 3 px, not a pale hairline.
    expect(await page.getByLabel('Message').evaluate((el) => getComputedStyle(el).outlineWidth)).toBe('3px')
  }, 60_000)

  it('books with the keyboard alone: one Tab stop for the seat grid, arrow keys move, Enter picks', async () => {
    await page.keyboard.type('Book a flight from Oslo to Berlin')
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: /SkyHigh/ }).waitFor()
    await page.waitForFunction(() => document.activeElement?.closest('[aria-label="Flights"]') !== null, undefined, { timeout: 10_000 })
    // The first flight has the focus; Tab to JetStream (the third), Enter.
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^JetStream JS-501/)
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-seat') !== null && document.activeElement?.getAttribute('data-seat') !== undefined, undefined, { timeout: 10_000 })
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-seat') ?? document.activeElement?.textContent)
    const start = await focused()
    expect(start).toBe('1A') // the first free seat
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key)
    expect(await focused()).toBe('3B')
    await page.keyboard.press('Enter')
    // One Tab leaves the grid: the next stop is Confirm.
    await page.keyboard.press('Tab')
    expect(await focused()).toBe('Confirm seat 3B')
    await page.keyboard.press('Enter')
    expect(await page.getByLabel('Booking confirmation').innerText()).toMatch(/TK-JS-501-3B/)
  }, 60_000)

  it('on a phone, every control of the seat map is at least 44 px, and taken seats differ by more than colour', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: /JetStream JS-501/ }).click()
    const map = page.getByRole('region', { name: 'Seat map' })
    await map.waitFor()
    const sizes = await map.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect()).map((r) => Math.min(r.width, r.height)))
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(44)
    const taken = map.getByRole('button', { name: /, taken$/ }).first()
    expect(await taken.innerText()).toBe('×')
    expect(await taken.getAttribute('aria-disabled')).toBe('true')
    expect(await map.getByRole('list', { name: 'Legend' }).innerText()).toMatch(/Free[\s\S]*Taken[\s\S]*Your pick/)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  }, 60_000)
})

describe('the built playground (npm run build && npm run serve)', () => {
  let built: ChildProcess | undefined
  afterAll(() => void built?.kill())

  it('serves the client and the chat from dist/ under plain Node, and books a flight', async () => {
    const vite = resolve(playground, '../node_modules/vite/bin/vite.js')
    const env = cleanEnv()
    const build = (args: string[]) => run([vite, 'build', '--logLevel', 'error', ...args], { cwd: playground, env, timeoutMs: 90_000, what: `vite build ${args.join(' ')}` })
    await build([])
    await build(['--ssr', 'src/server/chat.ts', '--outDir', 'dist/server'])
    const port = await freePort()
    built = (await startServer(['server.mjs'], { cwd: playground, env: cleanEnv({ PORT: String(port) }), ready: `127.0.0.1:${port}`, timeoutMs: 30_000, what: 'server.mjs' })).child
    await page.goto(`http://127.0.0.1:${port}/`)
    await send('Book a flight from Oslo to Berlin')
    await page.getByRole('button', { name: /JetStream JS-501/ }).click()
    await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
    await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
    expect(await page.getByLabel('Booking confirmation').innerText()).toMatch(/TK-JS-501-3B/)
  }, 120_000)

  // Uses the build of the test above (tests in a file run in order).
  it('with the server down: an answer shows the error in its component, a message is marked Not sent; when the server is back both go through', async () => {
    const port = await freePort()
    const env = cleanEnv({ PORT: String(port) })
    const serve = () => startServer(['server.mjs'], { cwd: playground, env, ready: `127.0.0.1:${port}`, timeoutMs: 30_000, what: 'server.mjs' })
    let server = await serve()
    try {
      await page.goto(`http://127.0.0.1:${port}/`)
      await send('Book a flight from Oslo to Berlin')
      await page.getByRole('button', { name: /JetStream JS-501/ }).click()
      await page.getByRole('grid', { name: 'Cabin' }).waitFor()
      server.child.kill('SIGTERM')
      await new Promise((r) => server.child.once('exit', r))

      await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
      await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
      await page.getByRole('region', { name: /seat/i }).getByRole('alert').filter({ hasText: /could not be delivered/ }).waitFor({ timeout: 15_000 })
      await page.getByRole('grid', { name: 'Cabin' }).waitFor() // still there, still answerable

      server = await serve() // back, on the same file: the call resumes from its journal
      await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
      await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor({ timeout: 15_000 })

      server.child.kill('SIGTERM')
      await new Promise((r) => server.child.once('exit', r))
      await send('hello')
      await page.getByText('Not sent.').waitFor({ timeout: 15_000 })
      server = await serve()
      await page.getByRole('button', { name: 'Retry' }).click()
      await page.getByText('Not sent.').waitFor({ state: 'detached', timeout: 15_000 })
      await page.getByText(/offline demo model/).last().waitFor({ timeout: 15_000 })
    } finally {
      server.child.kill('SIGTERM')
    }
  }, 120_000)

  // Uses the build of the test above (tests in a file run in order).
  it('npm run start:cluster: two instances on one Redis behind a round-robin proxy; a booking asked on one is answered on the other', async () => {
    const port = await freePort()
    const cluster = await startServer(['scripts/cluster.mjs'], {
      cwd: playground,
      env: cleanEnv({ PORT: String(port) }),
      ready: `cluster: http://127.0.0.1:${port}/`,
      timeoutMs: 60_000,
      what: 'scripts/cluster.mjs',
    })
    try {
      const served: string[] = []
      page.on('response', (r) => r.url().includes('/api/chat') && served.push(`${r.request().method()} ${r.headers()['x-served-by']}`))
      await page.goto(`http://127.0.0.1:${port}/`)
      await send('Book a flight from Oslo to Berlin')
      await page.getByRole('button', { name: /JetStream JS-501/ }).click()
      await page.getByRole('grid', { name: 'Cabin' }).waitFor()
      await page.reload()
      await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
      await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
      await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor({ timeout: 30_000 })
      // Round robin: the flight list was asked by one instance and answered on the other.
      const posts = served.filter((s) => s.startsWith('POST')).map((s) => s.slice(5))
      expect(posts).toHaveLength(3)
      expect(posts[1]).not.toBe(posts[0])
      expect(new Set(posts)).toEqual(new Set(['A', 'B']))
      expect(served.filter((s) => s.startsWith('GET'))).toHaveLength(2) // each load restored the conversation
    } finally {
      cluster.child.kill('SIGTERM')
    }
  }, 120_000)
})
