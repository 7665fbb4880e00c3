/**
 * Validation problems said for the person filling in a form. zod's default English messages are
 * written for developers ("Too big: expected string to have <=40 characters"); a refused answer
 * reaches a person, so answers are parsed with `forPeople`, zod 4's per-parse error map: it says
 * each problem as a sentence ("Use at most 40 characters.") from the issue's own fields (code,
 * origin, limits, input), never from zod's wording. A message the schema's author wrote
 * (`.max(40, 'Keep it short')`) takes precedence over a per-parse map in zod, so it stays theirs.
 *
 * For example:
 *
 * ```ts
 * const parsed = schema.safeParse(content, { error: forPeople })
 * if (!parsed.success) showBesideFields(summarizeIssues(parsed.error.issues))
 * ```
 */
import type { z } from 'zod/v4'

type RawIssue = z.core.$ZodRawIssue & { origin?: string; maximum?: number | bigint; minimum?: number | bigint; format?: string; values?: unknown[]; expected?: string }

/** zod 4's per-parse error map for answers a person gave; `undefined` keeps zod's own message. */
export function forPeople(issue: z.core.$ZodRawIssue): string | undefined {
  const i = issue as RawIssue
  switch (i.code) {
    case 'too_big':
      if (i.origin === 'string') return `Use at most ${i.maximum} characters.`
      if (i.origin === 'array' || i.origin === 'set') return `Choose at most ${i.maximum}.`
      return `Use a number no larger than ${i.maximum}.`
    case 'too_small':
      if (i.origin === 'string') return Number(i.minimum) <= 1 ? 'This field is required.' : `Use at least ${i.minimum} characters.`
      if (i.origin === 'array' || i.origin === 'set') return `Choose at least ${i.minimum}.`
      return `Use a number of at least ${i.minimum}.`
    case 'invalid_type':
      if (i.input === undefined || i.input === null) return 'This field is required.'
      if (i.expected === 'number' || i.expected === 'int') return 'Enter a number.'
      if (i.expected === 'boolean') return 'Choose yes or no.'
      return 'This value has the wrong kind of content.'
    case 'invalid_value':
      return i.values?.length ? `Choose one of: ${i.values.map(String).join(', ')}.` : 'Choose one of the options.'
    case 'invalid_format':
      if (i.format === 'email') return 'Enter an email address, like name@example.com.'
      if (i.format === 'url' || i.format === 'uri') return 'Enter a web address, like https://example.com.'
      if (i.format === 'date') return 'Enter a date as YYYY-MM-DD.'
      if (i.format === 'datetime') return 'Enter a date and time, like 2026-12-05T09:30:00Z.'
      return 'This value is not in the expected format.'
    default:
      return undefined
  }
}
