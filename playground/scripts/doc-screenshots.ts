/**
 * Regenerates the screenshot set in docs/screenshots/: the chat's main states (flight list, seat
 * map, confirmation, a refused answer, the generated form) on a desktop (1280×800) and a phone
 * (390×844), as a person sees them — the viewport, not the full page. Starts the playground's dev
 * server on a free port and drives headless Chromium. Run with `npm run docs:screenshots`
 * (tests never write into docs/).
 */
import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { launchChromium } from '../test/support/browser.ts'
import { walkMainStates } from '../test/support/main-states.ts'
import { cleanEnv, freePort, startServer } from '../test/support/processes.ts'

const playground = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const target = resolve(playground, '../docs/screenshots')
const DEVICES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const

mkdirSync(target, { recursive: true })
const port = await freePort()
const dev = await startServer([resolve(playground, '../node_modules/vite/bin/vite.js'), '--strictPort', '--port', String(port)], {
  cwd: playground,
  env: cleanEnv(),
  ready: `127.0.0.1:${port}`,
  timeoutMs: 90_000,
  what: 'the playground dev server',
})
const browser = await launchChromium()
try {
  for (const [device, viewport] of Object.entries(DEVICES)) {
    // A context per device: its own storage, so each walk starts a new conversation.
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, ...(device === 'phone' && { isMobile: true, hasTouch: true }) })
    const page = await context.newPage()
    await page.goto(`http://127.0.0.1:${port}/`, { timeout: 60_000 })
    await walkMainStates(page, async (state) => {
      if (state === 'empty-chat') return
      // Let the follow-latest scroll and the focus settle before the picture.
      await page.waitForTimeout(300)
      const path = join(target, `${device}-${state}.png`)
      await page.screenshot({ path })
      console.log(`wrote ${path}`)
    })
    await context.close()
  }
} finally {
  await browser.close()
  dev.child.kill()
}
