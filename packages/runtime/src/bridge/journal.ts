/**
 * The journal of a tool call: every resolved yield point — each `ctx.step` (and the handoff's
 * `before`, which is a step), each elicit answer, each sample result — in order. A call store
 * persists it; replaying it into a new host re-runs the tool's code to the same point without
 * running a step or asking anyone again, so a suspended call can resume on another instance or
 * after a restart.
 *
 * Entries are keyed by kind + name + sequence (their 1-based position). Replay checks each key
 * as the tool reaches it: a tool whose code changed between runs, or that reached its yield
 * points in another order, fails with `JournalDivergenceError` naming the entry — it is never
 * fed an answer that belongs to another question.
 */
import { JournalDivergenceError } from '../errors/call-errors.ts'
import type { IssueSummary } from '../errors/issues.ts'
import type { SampleResult } from '../sampling/types.ts'
import type { ElicitResult } from '../tool/elicits.ts'

/** What a failed step left behind; replay throws it again as a `StepFailedError`. */
export interface StepFailure {
  message: string
  /** The `code` of the error the step threw, when it had one. */
  code?: string
}

/**
 * One resolved yield point of a call (a handoff's `before` value, an answer, a sampling result, a step's value): what a replay feeds the generator instead of running it again.
 */
export type JournalEntry =
  /** A step's result (`value` absent for `undefined`), or how it failed. */
  | { kind: 'step'; name: string; seq: number; value?: unknown }
  | { kind: 'step'; name: string; seq: number; error: StepFailure }
  | { kind: 'elicit'; name: string; seq: number; result: ElicitResult<unknown> }
  /** The answer was invalid and the tool was handed an `ElicitationInvalidResponseError` instead. */
  | { kind: 'elicit'; name: string; seq: number; invalid: IssueSummary[] }
  | { kind: 'sample'; name: string; seq: number; result: SampleResult<unknown> }
  /** The call took the path of `ctx.patched(name)` (the code as changed by that patch). */
  | { kind: 'patch'; name: string; seq: number }

export type JournalKind = JournalEntry['kind']

/** The name `before` is journaled under: a handoff's `before()` is a step like any other. */
export const BEFORE_STEP = 'handoff.before'

/** How an entry is named in messages: `step "issue ticket" (#3)`. */
export function describeEntry(entry: Pick<JournalEntry, 'kind' | 'name' | 'seq'>): string {
  return `${entry.kind} "${entry.name}" (#${entry.seq})`
}

/** A step that completed: its name and what it returned (`undefined` when it returned nothing). */
export interface CompletedStep {
  name: string
  result: unknown
}

/**
 * The steps that completed (their effect happened and stays), in order, with what each returned:
 * what a call stopped by an abort had already done, so nobody is told "cancelled" while a ticket
 * exists — and is told its number.
 */
export function completedSteps(journal: readonly JournalEntry[]): CompletedStep[] {
  return journal.flatMap((e) => (e.kind === 'step' && !('error' in e) && e.name !== BEFORE_STEP ? [{ name: e.name, result: e.value }] : []))
}

/** Entries without their sequence number, as callers build them. */
type Unnumbered = JournalEntry extends infer E ? (E extends JournalEntry ? Omit<E, 'seq'> : never) : never

export class Journal {
  readonly entries: JournalEntry[] = []
  readonly #replay: readonly JournalEntry[]

  constructor(
    private readonly toolName: string,
    replay: readonly JournalEntry[] = [],
  ) {
    this.#replay = replay
  }

  /**
   * The recorded entry for the tool's next yield point while replaying (undefined once the
   * journal is used up). Throws `JournalDivergenceError` if the journal has something else there.
   */
  take<K extends JournalKind>(kind: K, name: string): Extract<JournalEntry, { kind: K }> | undefined {
    const seq = this.entries.length + 1
    const entry = this.#replay[seq - 1]
    if (!entry) return undefined
    if (entry.kind !== kind || entry.name !== name || entry.seq !== seq) {
      throw new JournalDivergenceError(this.toolName, describeEntry(entry), describeEntry({ kind, name, seq }))
    }
    this.entries.push(entry)
    return entry as Extract<JournalEntry, { kind: K }>
  }

  /**
   * Which path the call takes at `ctx.patched(name)`: `true` when its journal says it took the
   * patched one (the marker is consumed), `false` when the journal has something else here (the
   * call was recorded before the patch existed: the old path, nothing consumed), `'new'` past the
   * journal's end (a new call, or an old one gone on past what it recorded: the patched path,
   * and the marker is to be recorded).
   */
  patched(name: string): boolean | 'new' {
    const seq = this.entries.length + 1
    const entry = this.#replay[seq - 1]
    if (!entry) return 'new'
    if (entry.kind !== 'patch' || entry.name !== name) return false
    this.entries.push(entry)
    return true
  }

  /** Record a new entry; returns it with its sequence number. */
  record(entry: Unnumbered): JournalEntry {
    const numbered = { ...entry, seq: this.entries.length + 1 } as JournalEntry
    this.entries.push(numbered)
    return numbered
  }

  get replaying(): boolean {
    return this.entries.length < this.#replay.length
  }

  /** The first entry the tool never reached, if the call ended while replaying. */
  unreached(): JournalEntry | undefined {
    return this.#replay[this.entries.length]
  }
}
