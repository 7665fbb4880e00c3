/**
 * Validation problems as the library reports them: a dotted path and a sentence. zod's issues
 * are summarised once here and printed by one formatter, so every error message and every
 * refusal on the wire lists problems the same way.
 */
import type { z } from 'zod/v4'

/**
 * One validation problem: a dotted path (`seat`, `flights.0.price`; empty for the whole value) and a sentence.
 */
export interface IssueSummary {
  /** Dotted path, e.g. `seat` or `flights.0.price`; empty for the root. */
  path: string
  message: string
}

export function summarizeIssues(issues: readonly z.core.$ZodIssue[]): IssueSummary[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
}

/**
 * `seat: Too big; row: Required` (inline, for one-line messages) or one `  - path: message`
 * line per issue (list, for multi-line errors). `root` names an issue without a path.
 */
export function formatIssues(issues: readonly IssueSummary[], style: 'inline' | 'list' = 'inline', root = '(root)'): string {
  const lines = issues.map((i) => `${i.path || root}: ${i.message}`)
  return style === 'inline' ? lines.join('; ') : lines.map((l) => `  - ${l}`).join('\n')
}
