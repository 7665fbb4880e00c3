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
  return issues.flatMap((i) => {
    const nested = i.code === 'invalid_union' ? closestBranch(i) : undefined
    return nested ? summarizeIssues(nested.map((n) => ({ ...n, path: [...i.path, ...n.path] }))) : [{ path: i.path.map(String).join('.'), message: i.message }]
  })
}

/**
 * A union that failed, said by its nearest branch: zod 4.6 reports the issue of the branch that
 * came closest itself, zod 4.0–4.5 (and 3.25's `zod/v4`) only "Invalid input" with every branch's
 * issues beside it. The branch whose issues go deepest into the value (it matched furthest) speaks,
 * so both say what the option's own messages say.
 */
function closestBranch(issue: z.core.$ZodIssue & { code: 'invalid_union' }): readonly z.core.$ZodIssue[] | undefined {
  const branches = ((issue as { errors?: readonly (readonly z.core.$ZodIssue[])[] }).errors ?? []).filter((b) => b.length > 0)
  if (branches.length === 0) return undefined
  const depth = (b: readonly z.core.$ZodIssue[]) => Math.max(...b.map((n) => n.path.length + (n.code === 'invalid_type' ? 0 : 0.5)))
  return branches.reduce((best, b) => (depth(b) > depth(best) ? b : best))
}

/**
 * `seat: Too big; row: Required` (inline, for one-line messages) or one `  - path: message`
 * line per issue (list, for multi-line errors). `root` names an issue without a path.
 */
export function formatIssues(issues: readonly IssueSummary[], style: 'inline' | 'list' = 'inline', root = '(root)'): string {
  const lines = issues.map((i) => `${i.path || root}: ${i.message}`)
  return style === 'inline' ? lines.join('; ') : lines.map((l) => `  - ${l}`).join('\n')
}
