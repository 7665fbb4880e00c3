/** Keeps the README's first quick-start command honest: the example runs the tool to the end. */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const example = fileURLToPath(new URL('../scripts/example.ts', import.meta.url))

describe('npm start example', () => {
  it('books a flight through the bridge, showing the refused answer, and the schema error', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', example], { encoding: 'utf8', timeout: 60_000 })
    expect(out).toContain('book_flight completed: {"booked":true,"flightId":"CA-287","seat":"12C"')
    expect(out).toMatch(/refused\s+pickSeat: .*row/)
    expect(out).toContain('profile.tags: arrays are only allowed as multi-select enums')
  })
})
