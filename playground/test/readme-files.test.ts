/**
 * A README code block that names a playground file on its first line (`// playground/…`) shows
 * that file as it is: the snippet is the code the e2e tests run, so it cannot drift from it.
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const readme = readFileSync(resolve(root, 'README.md'), 'utf8')
const blocks = [...readme.matchAll(/```\w*\n\/\/ (playground\/\S+)\n([\s\S]*?)```/g)].map(([, path, body]) => ({ path: path!, body: body! }))

describe('README snippets that name a playground file', () => {
  it('exist', () => {
    expect(blocks.map((b) => b.path)).toContain('playground/src/tools/reserve-table/plugin.tsx')
  })

  it.each(blocks.map((b) => [b.path, b.body] as const))('%s is shown as it is', (path, body) => {
    expect(body).toBe(readFileSync(resolve(root, path), 'utf8'))
  })
})
