/**
 * Validation problems said for the person filling in a form. zod's default English messages are
 * written for developers ("Too big: expected string to have <=40 characters"); a refused answer
 * reaches a person, so those defaults become sentences ("Use at most 40 characters."). A message
 * the schema's author wrote (`.max(40, 'Keep it short')`) is theirs and passes unchanged: only
 * zod's own defaults — recognised by their wording — are rewritten.
 */
import type { z } from 'zod'
import type { IssueSummary } from './issues.ts'

type Issue = z.core.$ZodIssue

export function summarizeIssuesForPeople(issues: readonly Issue[]): IssueSummary[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), message: sayForPeople(i) }))
}

const ZOD_DEFAULT = /^(Too big|Too small|Invalid input|Invalid option|Invalid (email address|URL|ISO date|ISO datetime|string))\b/

export function sayForPeople(issue: Issue): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message
  const i = issue as Issue & { origin?: string; maximum?: number | bigint; minimum?: number | bigint; format?: string; values?: unknown[]; expected?: string }
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
      // zod reports no input by default; its message says what it received.
      if (/received (undefined|null)$/.test(i.message)) return 'This field is required.'
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
      return issue.message
  }
}
