/**
 * The MCP Apps host harness (see `mcp-apps-host/host.ts`): its page is bundled with Vite once per
 * run and opened with `setContent`; the MCP client is the official SDK's, in the test process.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Client } from '@modelcontextprotocol/client'
import type { Page } from 'playwright-core'
import { build, type Rolldown } from 'vite'

const here = dirname(fileURLToPath(import.meta.url))

export async function buildHostPage(): Promise<string> {
  const output = (await build({
    configFile: false,
    root: join(here, 'mcp-apps-host'),
    logLevel: 'error',
    build: { write: false, minify: false, rolldownOptions: { input: join(here, 'mcp-apps-host/host.ts'), output: { codeSplitting: false } } },
  })) as Rolldown.RolldownOutput
  const script = output.output.find((o) => o.type === 'chunk')!.code.replace(/<\/script/gi, '<\\/script')
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP Apps host</title>',
    '<style>body{font-family:system-ui,sans-serif;margin:0;background:#f3f4f6}main{max-width:760px;margin:0 auto;padding:16px}',
    '.turn{background:#fff;border-radius:14px;padding:10px 14px;margin:0 0 12px}</style></head>',
    '<body><main id="conversation"><p class="turn"><strong>You:</strong> Book a flight from Oslo to Berlin</p>',
    '<p class="turn"><strong>Assistant:</strong> calling <code>book_flight</code>…</p></main>',
    `<script type="module">${script}</script></body></html>`,
  ].join('\n')
}

/** Open the host page wired to `client`, and render `html` as the view of a call of `tool` with `args`. */
export async function openView(page: Page, hostPage: string, client: Client, view: { html: string; tool: string; args: Record<string, unknown> }): Promise<void> {
  await page.exposeFunction('hostCallTool', (params: Parameters<Client['callTool']>[0]) => client.callTool(params, { timeout: 60_000 }))
  await page.exposeFunction('hostReadResource', (params: Parameters<Client['readResource']>[0]) => client.readResource(params))
  await page.setContent(hostPage)
  await page.evaluate((v) => (window as unknown as { startView(h: string, t: string, a: unknown): Promise<void> }).startView(v.html, v.tool, v.args), view)
}
