/**
 * The journal of a tool call: every resolved yield point (the handoff's `before` value, each
 * elicit result, each sample result), in order. A session store persists it; replaying it into
 * a new host re-runs the generator to the same point without asking anyone again, so a suspended
 * call can resume on another instance or after a restart. That only works if the tool is
 * deterministic between yield points, which replay checks step by step.
 */
import type { SampleResult } from '../sampling/types.ts'
import type { ElicitResult } from '../tool/elicits.ts'
import { JournalMismatchError } from '../errors/call-errors.ts'
import type { IssueSummary } from '../errors/issues.ts'

export type JournalEntry =
  | { kind: 'before'; value: unknown }
  | { kind: 'elicit'; key: string; seq: number; result: ElicitResult<unknown> }
  /** The answer was invalid and the tool was handed an `ElicitationInvalidResponseError` instead. */
  | { kind: 'elicit'; key: string; seq: number; invalid: IssueSummary[] }
  | { kind: 'sample'; result: SampleResult<unknown> }

export class Journal {
  readonly entries: JournalEntry[] = []
  #replay: readonly JournalEntry[]

  constructor(
    private readonly toolName: string,
    replay: readonly JournalEntry[] = [],
  ) {
    this.#replay = replay
  }

  /** The recorded entry for the next step, if we are still replaying; checks it is the same step. */
  take<K extends JournalEntry['kind']>(kind: K, key?: string): Extract<JournalEntry, { kind: K }> | undefined {
    const position = this.entries.length
    const entry = this.#replay[position]
    if (!entry) return undefined
    const got = key === undefined ? kind : `${kind}:${key}`
    const expected = entry.kind === 'elicit' ? `elicit:${entry.key}` : entry.kind
    if (expected !== got) throw new JournalMismatchError(this.toolName, position + 1, expected, got)
    this.entries.push(entry)
    return entry as Extract<JournalEntry, { kind: K }>
  }

  record(entry: JournalEntry): void {
    this.entries.push(entry)
  }

  get replaying(): boolean {
    return this.entries.length < this.#replay.length
  }
}
