/**
 * docs/guide/ai-sdk.md shows the AI SDK app's files as they are (the e2e test runs them), and says how
 * many lines the bridge adds: counted here from the files' `// mcp-bridge` marks.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const read = (path: string) => readFileSync(join(repo, path), 'utf8')
const doc = read('docs/guide/ai-sdk.md')

describe('docs/guide/ai-sdk.md', () => {
  const blocks = [...doc.matchAll(/<!-- file: (\S+) -->\n```tsx?\n([\s\S]*?)```/g)].map((m) => ({ path: m[1]!, code: m[2]! }))

  it('shows each file of the example app verbatim', () => {
    expect(blocks.map((b) => b.path)).toEqual(['adoption/ai-sdk-app/vite.config.ts', 'adoption/ai-sdk-app/src/server/app.ts', 'adoption/ai-sdk-app/src/App.tsx'])
    for (const block of blocks) expect(block.code, block.path).toBe(read(block.path))
  })

  it('counts the lines the bridge adds as the files mark them (target: at most 15)', () => {
    const marked = blocks.flatMap((b) => b.code.split('\n')).filter((line) => /\/\/ mcp-bridge\b/.test(line))
    const serving = marked.filter((line) => line.includes('// mcp-bridge (serving)'))
    expect(marked.length - serving.length).toBe(14)
    expect(serving).toHaveLength(2)
    expect(doc).toContain('Each line marked `// mcp-bridge` is one the bridge adds: 14 in all.')
  })

  it('is linked from the README', () => {
    expect(read('README.md')).toContain('(docs/guide/ai-sdk.md)')
  })
})
