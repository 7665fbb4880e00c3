/**
 * Commands the docs tell people to run. `npx mcp-bridge …` with the plugin not installed asks the
 * registry for an unscoped `mcp-bridge` package — a name anyone could publish — so the docs say
 * `npx -p @mcp-bridge/vite-plugin mcp-bridge …` (the local install when there is one, else ours).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..')
const pages = [
  'README.md',
  'packages/runtime/README.md',
  'packages/vite-plugin/README.md',
  ...(readdirSync(join(repo, 'docs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md') && !f.includes('node_modules')).map((f) => join('docs', f)),
]

describe('commands in the docs', () => {
  it('never run the CLI through an unscoped npx name', () => {
    const bare = pages.flatMap((page) => (readFileSync(join(repo, page), 'utf8').match(/npx +(?:--\S+ +)*mcp-bridge\b.*/g) ?? []).map((line) => `${page}: ${line}`))
    expect(bare).toEqual([])
    expect(readFileSync(join(repo, 'docs/guide/vite-plugin.md'), 'utf8')).toContain('npx -p @mcp-bridge/vite-plugin mcp-bridge check')
  })
})
