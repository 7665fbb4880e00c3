/**
 * Refreshes docs/playground-booking.png, the README's picture: starts the playground's dev server
 * on a free port, books a flight in headless Chromium and saves the page. Run with
 * `npm run docs:screenshot` (tests never write into docs/).
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { launchChromium } from '../test/support/browser.ts'
import { bookOsloToBerlin } from '../test/support/booking.ts'
import { cleanEnv, freePort, startServer } from '../test/support/processes.ts'

const playground = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const target = resolve(playground, '../docs/playground-booking.png')
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
  const page = await browser.newPage({ viewport: { width: 900, height: 1000 } })
  await page.goto(`http://127.0.0.1:${port}/`, { timeout: 60_000 })
  await bookOsloToBerlin(page)
  await page.screenshot({ path: target })
  console.log(`wrote ${target}`)
} finally {
  await browser.close()
  dev.child.kill()
}
