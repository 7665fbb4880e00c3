import { chromium } from 'playwright-core'
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage()
const errors = []
page.on('pageerror', (e) => errors.push(String(e)))
page.on('console', (m) => m.type() === 'error' && errors.push(m.text().slice(0, 90)))
page.on('response', (r) => r.status() >= 400 && errors.push(r.status() + ' ' + r.url()))
page.on('websocket', (ws) => { errors.push('ws ' + ws.url()); ws.on('close', () => errors.push('ws closed ' + ws.url())) })
await page.goto('http://127.0.0.1:6016/?path=/story/greet-nameform--empty')
await page.waitForTimeout(6000)
console.log('errors', errors)
await browser.close()
