import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { forPeople } from '../../src/errors/human-issues.ts'
import { summarizeIssues } from '../../src/errors/issues.ts'

const said = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value, { error: forPeople })
  if (parsed.success) throw new Error('expected a failure')
  return summarizeIssues(parsed.error.issues)
}

describe('validation problems said for people', () => {
  it("rewrites zod's developer wording into sentences", () => {
    const form = z.object({
      name: z.string().max(40),
      nick: z.string().min(1),
      code: z.string().min(3),
      row: z.int().min(1).max(30),
      seat: z.enum(['A', 'B']),
      email: z.email(),
      site: z.url(),
      day: z.iso.date(),
      tags: z.array(z.enum(['x', 'y'])).max(1),
      age: z.number(),
      ok: z.boolean(),
    })
    const issues = said(form, { name: 'x'.repeat(41), nick: '', code: 'ab', row: 31, seat: 'Z', email: 'nope', site: 'nope', day: '2020', tags: ['x', 'y'], age: 'old' })
    expect(Object.fromEntries(issues.map((i) => [i.path, i.message]))).toEqual({
      name: 'Use at most 40 characters.',
      nick: 'This field is required.',
      code: 'Use at least 3 characters.',
      row: 'Use a number no larger than 30.',
      seat: 'Choose one of: A, B.',
      email: 'Enter an email address, like name@example.com.',
      site: 'Enter a web address, like https://example.com.',
      day: 'Enter a date as YYYY-MM-DD.',
      tags: 'Choose at most 1.',
      age: 'Enter a number.',
      ok: 'This field is required.',
    })
  })

  it("reads the issue, not zod's wording: another locale's messages change nothing", () => {
    z.config(z.locales.de())
    try {
      const issues = said(z.object({ name: z.string().max(2), age: z.number() }), { name: 'long' })
      expect(issues.map((i) => i.message)).toEqual(['Use at most 2 characters.', 'This field is required.'])
    } finally {
      z.config(z.locales.en())
    }
  })

  it("keeps the schema author's own messages", () => {
    const issues = said(z.object({ name: z.string().max(3, 'Keep it short'), color: z.string().regex(/^#/, 'Use a hex color like #3b82f6') }), { name: 'long', color: 'blue' })
    expect(issues.map((i) => i.message)).toEqual(['Keep it short', 'Use a hex color like #3b82f6'])
  })
})
