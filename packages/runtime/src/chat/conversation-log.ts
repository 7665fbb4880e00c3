/**
 * Conversations in the call store, so a reload (or a second tab) finds the chat as it was: the
 * messages to continue with and the transcript of what the user saw (see `transcript.ts`).
 *
 * The client names a conversation with a random id and proves it owns it with a random secret;
 * the store keeps only the secret's hash. The transcript holds each call's token (a restored
 * question must be answerable), so tokens are stored sealed with a key derived from the secret:
 * a copy of the store alone answers no call. A turn writes at its start, whenever a call asks or
 * ends, and at its end — so a server that dies mid-turn has stored everything up to its last
 * question.
 *
 * A turn **appends** what it adds (events, and the messages from where they changed on): it reads
 * the conversation's small head, never the conversation, so its cost does not grow with what came
 * before. Appends go on top of the revision they read, retried on a conflict (two tabs of one
 * conversation each add their own). Once the appended entries are larger than both the state and
 * `maxTranscriptBytes`, a writer folds them into a new state: a conversation is read whole only to
 * restore it or to fold it, and each fold is paid for by at least as many bytes of appends.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { hashToken, tokenMatches } from '../calls/call-record.ts'
import type { CallStore, ConversationHead, ConversationRecord } from '../calls/stores/call-store.ts'
import type { ConversationKey, ConversationSnapshot, TranscriptEvent } from '../protocol/chat-wire.ts'
import type { McpMessage } from '../sampling/content.ts'
import { boundTranscript, lastTurnOf, pushToTranscript } from './transcript.ts'
import { reconcileCalls } from './reconcile-calls.ts'
import type { Clock } from '../time/clock.ts'
import { ConversationWriteError } from '../errors/server-errors.ts'

/** Writes that lost a race this many times in a row give up (someone is rewriting it in a loop). */
const MAX_WRITE_ATTEMPTS = 8

/** The state a conversation was last written whole with (and all of it, in versions before the log). */
interface StoredState {
  v: 1
  messages: McpMessage[]
  events: TranscriptEvent[]
  /** Versions before the log kept the request ids here. */
  requests?: string[]
}

/** What each turn reads and sets, whatever the conversation's size (the store's `meta`). */
interface Meta {
  v: 2
  /** The request ids of the latest turns, so a retried turn is recognised (`MAX_REQUEST_IDS`). */
  requests: string[]
  /** How many messages the conversation holds. */
  messages: number
  /** Bytes of the state as last written whole: the log is folded once it is larger (and past the transcript's bound). */
  folded?: number
}

/** One append: the messages from `keep` on replaced by `add`, and events added to the transcript. */
interface Entry {
  messages?: { keep: number; add: McpMessage[] }
  events?: TranscriptEvent[]
}

/** Request ids remembered per conversation: far more than a client retries. */
const MAX_REQUEST_IDS = 64

/** Who writes a conversation: the client's turn (with its secret) or a recovered call (without). */
interface Writer {
  id: string
  /** The stored conversation is this one (its secret). */
  owns(head: ConversationHead): boolean
  /** The secret's hash, for a conversation written for the first time. */
  secretHash(): string
  /** An event as it may be stored (a call's token sealed, or left out). */
  seal(event: TranscriptEvent): TranscriptEvent
}

/** Records one turn: events as they are emitted, written at each `checkpoint`. */
export interface TurnRecorder {
  record(event: TranscriptEvent): void
  checkpoint(messages: readonly McpMessage[]): Promise<void>
  /** Record `event` and write it with `messages` at once: what a reload must show, saved before it is sent. */
  save(event: TranscriptEvent, messages: readonly McpMessage[]): Promise<void>
  /** The conversation's revision as this turn last wrote (or read) it. */
  revision(): number | undefined
}

/** What a turn's first checkpoint may take as stored: the first `count` messages it sends, or none. */
interface Stored {
  /** Messages the store holds. */
  count: number
  /** JSON of the messages known to be those the store holds, from the front (all of `count`, or none). */
  texts: string[] | 'the first of the turn'
}

export class ConversationLog {
  constructor(
    private readonly store: CallStore,
    private readonly ttlMs: number,
    private readonly clock: Clock,
    /** The transcript is kept within this many bytes; older turns go first. Appends past it are folded. */
    private readonly maxTranscriptBytes: number,
  ) {}

  /**
   * Start recording a turn of this conversation; undefined if the id belongs to another secret.
   * (A new id is fine: the first write creates it.)
   */
  async begin(
    key: ConversationKey,
    { requestId, knownRevision, onNew, replaceLastTurn = false }: { requestId?: string; knownRevision?: number; onNew?: () => Promise<void>; replaceLastTurn?: boolean } = {},
  ): Promise<TurnRecorder | 'forbidden' | 'already applied' | 'moved on' | 'turn still open'> {
    const writer: Writer = { id: key.id, owns: (h) => tokenMatches(h.secretHash, key.secret), secretHash: () => hashToken(key.secret), seal: (e) => sealToken(e, key.secret) }
    const head = await this.store.getConversationHead(key.id)
    if (head && !writer.owns(head)) return 'forbidden'
    // A request from a page that has not seen the latest (another tab answered, a recovered call
    // ended): nothing of it runs, and its messages never overwrite what is stored.
    if (knownRevision !== undefined && (head?.revision ?? 0) !== knownRevision) return 'moved on'
    if (!head) await onNew?.()
    let meta = head && (await this.#meta(head))
    let revision = head?.revision
    if (requestId !== undefined) {
      // Claimed with an append on top of what was read: of two tries of one request (a retry whose
      // first response was lost, two tabs), exactly one goes on.
      let seen = false
      const written = await this.#append(
        writer,
        (before) => {
          seen = before?.requests.includes(requestId) ?? false
          meta = before
          return seen
            ? undefined
            : { meta: { ...before, v: 2, messages: before?.messages ?? 0, requests: [...(before?.requests ?? []), requestId].slice(-MAX_REQUEST_IDS) }, entries: [] }
        },
        'its request id was not recorded',
      )
      if (seen) return 'already applied'
      revision = written?.revision ?? revision
      meta = (written?.meta as Meta | undefined) ?? meta
    }
    if (replaceLastTurn) {
      const replaced = await this.#replaceLastTurn(writer)
      if (replaced === 'turn still open') return replaced
      revision = replaced ?? revision
    }
    // The page sent the messages it was given with `knownRevision`: those the store holds, then the new.
    const trusted = knownRevision !== undefined && !replaceLastTurn
    return this.#recorder(writer, { count: meta?.messages ?? 0, texts: trusted ? 'the first of the turn' : [] }, revision)
  }

  /**
   * Carry on a conversation without its secret: a call recovered after its server stopped reports
   * its question or its end there. Only an existing conversation, written under the same secret;
   * a call's token cannot be sealed without the secret, so a `tool_call` is recorded without one.
   */
  async carryOn(id: string): Promise<{ messages: McpMessage[]; recorder: TurnRecorder } | undefined> {
    const record = await this.store.getConversation(id)
    if (!record) return undefined
    const { secretHash } = record
    const { messages } = this.#fold(record)
    const recorder = this.#recorder(
      { id, owns: (h) => h.secretHash === secretHash, secretHash: () => secretHash, seal: (e) => (e.type === 'tool_call' ? { ...e, token: undefined } : e) },
      { count: messages.length, texts: messages.map((m) => JSON.stringify(m)) },
      record.revision,
    )
    return { messages, recorder }
  }

  /**
   * Forget a conversation (its record expires now): undefined if unknown or the secret does not
   * match. Resolves with the calls its transcript names, with their tokens, so the caller can
   * cancel those still waiting.
   */
  async delete(key: ConversationKey): Promise<{ calls: Array<{ callId: string; token: string }> } | undefined> {
    const record = await this.store.getConversation(key.id)
    if (!record || !tokenMatches(record.secretHash, key.secret)) return undefined
    const now = this.clock.now()
    if (!(await this.store.putConversation({ ...record, state: undefined, revision: record.revision + 1, updatedAt: now, expiresAt: now }))) return this.delete(key)
    const calls = this.#fold(record).events.flatMap((e) => {
      if (e.type !== 'tool_call' || e.token === undefined) return []
      const opened = openToken(e, key.secret)
      return opened.type === 'tool_call' && opened.token !== undefined ? [{ callId: opened.callId, token: opened.token }] : []
    })
    return { calls }
  }

  /** The conversation as the client restores it; undefined if unknown or the secret does not match. */
  async snapshot(key: ConversationKey): Promise<ConversationSnapshot | undefined> {
    const record = await this.store.getConversation(key.id)
    if (!record || !tokenMatches(record.secretHash, key.secret)) return undefined
    const folded = this.#fold(record)
    const { messages, events } = await reconcileCalls(this.store, folded.messages, folded.events)
    return { id: record.id, revision: record.revision, messages, events: events.map((e) => openToken(e, key.secret)) }
  }

  #recorder(writer: Writer, stored: Stored, revision: number | undefined): TurnRecorder {
    let pending: TranscriptEvent[] = []
    let writes = Promise.resolve()
    /** `texts`: the messages as JSON, one each, taken at the checkpoint (the turn goes on changing them). */
    const write = async (texts: string[]) => {
      const known = stored.texts === 'the first of the turn' ? (texts.length >= stored.count ? texts.slice(0, stored.count) : []) : stored.texts
      let keep = 0
      while (keep < known.length && keep < texts.length && known[keep] === texts[keep]) keep++
      const changed = keep < stored.count || keep < texts.length
      if (pending.length === 0 && !changed) return
      const entry: Entry = {
        ...(changed && { messages: { keep, add: texts.slice(keep).map((t) => JSON.parse(t) as McpMessage) } }),
        ...(pending.length > 0 && { events: pending }),
      }
      pending = []
      const written = await this.#append(
        writer,
        (before) => ({ meta: { ...before, v: 2, requests: before?.requests ?? [], messages: changed ? texts.length : (before?.messages ?? stored.count) }, entries: [entry] }),
        "the turn's last events were not saved",
      )
      revision = written?.revision ?? revision
      stored = { count: texts.length, texts }
    }
    /** The last event recorded was text: the next delta goes on the same reply. */
    let inText = false
    const clock = this.clock
    const recorder: TurnRecorder = {
      record(event) {
        // A reply's first delta says when it began, for the times a reload shows.
        if (event.type === 'text_delta' && !inText) event = { ...event, at: clock.now() }
        inText = event.type === 'text_delta'
        const last = pending[pending.length - 1]
        // Deltas of one reply are appended as one.
        if (event.type === 'text_delta' && last?.type === 'text_delta') pending[pending.length - 1] = { ...last, text: last.text + event.text }
        else pending.push(writer.seal(event))
      },
      checkpoint(messages) {
        const texts = messages.map((m) => JSON.stringify(m))
        writes = writes.then(() => write(texts))
        return writes
      },
      save(event, messages) {
        recorder.record(event)
        return recorder.checkpoint(messages)
      },
      revision: () => revision,
    }
    return recorder
  }

  /**
   * The last turn goes from the transcript (a reload shows the new one in its place) — unless one
   * of its calls still runs or waits: its card and question must stay answerable. Written whole
   * (an edit is rare); resolves to the revision written, if it wrote.
   */
  async #replaceLastTurn(writer: Writer): Promise<number | undefined | 'turn still open'> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const record = await this.store.getConversation(writer.id)
      if (!record) return undefined
      const { messages, events } = this.#fold(record)
      const turn = lastTurnOf(events)
      if (turn.open.length > 0) return 'turn still open'
      if (turn.start < 0) return undefined
      const now = this.clock.now()
      const state: StoredState = { v: 1, messages, events: events.slice(0, turn.start) }
      const meta: Meta = { ...(await this.#meta(record)), folded: Buffer.byteLength(JSON.stringify(state)) }
      const next = { id: record.id, secretHash: record.secretHash, state, meta, revision: record.revision + 1, updatedAt: now, expiresAt: now + this.ttlMs }
      if (await this.store.putConversation(next)) return next.revision
    }
    throw new ConversationWriteError(`Conversation ${writer.id} changed ${MAX_WRITE_ATTEMPTS} times while this turn tried to save it; its last turn was not replaced.`)
  }

  /**
   * Append on top of what is stored: `change` gets the stored meta (none for a new conversation)
   * and returns the next with the entries to add, or `undefined` to write nothing. Retried on a
   * conflict (another tab, a recovered call). Resolves to the head written, if it wrote.
   */
  async #append(writer: Writer, change: (meta: Meta | undefined) => { meta: Meta; entries: Entry[] } | undefined, lost: string): Promise<ConversationHead | undefined> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const head = await this.store.getConversationHead(writer.id)
      if (head && !writer.owns(head)) {
        throw new ConversationWriteError(`Conversation ${writer.id} belongs to another secret; nothing was written.`)
      }
      const next = change(head && (await this.#meta(head)))
      if (!next) return undefined
      const now = this.clock.now()
      const written = await this.store.appendConversation({
        id: writer.id,
        secretHash: head?.secretHash ?? writer.secretHash(),
        ifRevision: head?.revision ?? 0,
        meta: next.meta,
        entries: next.entries,
        updatedAt: now,
        expiresAt: now + this.ttlMs,
      })
      if (!written) continue
      if (written.logBytes > Math.max(this.maxTranscriptBytes, next.meta.folded ?? 0)) await this.#compact(written, next.meta)
      return written
    }
    throw new ConversationWriteError(`Conversation ${writer.id} changed ${MAX_WRITE_ATTEMPTS} times while this turn tried to save it; ${lost}.`)
  }

  /**
   * Fold the log into a new state, on top of the revision just written; if someone wrote since,
   * they (or the next writer) fold it. Its appends are saved already: a failure here loses nothing.
   */
  async #compact(head: ConversationHead, meta: Meta): Promise<void> {
    try {
      const record = await this.store.getConversation(head.id)
      if (!record || record.revision !== head.revision) return
      const { messages, events } = this.#fold(record)
      const state: StoredState = { v: 1, messages, events }
      const folded = Buffer.byteLength(JSON.stringify(state))
      await this.store.putConversation({
        id: record.id,
        secretHash: record.secretHash,
        state,
        meta: { ...meta, folded },
        revision: record.revision + 1,
        updatedAt: record.updatedAt,
        expiresAt: record.expiresAt,
      })
    } catch {
      // The store failed after the append it stored: the next write folds it, or reports the store.
    }
  }

  /** The conversation's messages and transcript: its state with its log applied, the transcript bounded. */
  #fold(record: ConversationRecord): { messages: McpMessage[]; events: TranscriptEvent[] } {
    const state = record.state as StoredState | undefined
    let messages = state?.messages ?? []
    const events = [...(state?.events ?? [])]
    for (const entry of record.log as Entry[]) {
      if (entry.messages) messages = [...messages.slice(0, entry.messages.keep), ...entry.messages.add]
      for (const event of entry.events ?? []) pushToTranscript(events, event)
    }
    return { messages, events: boundTranscript(events, this.maxTranscriptBytes) }
  }

  /** The head's meta; a conversation of a version before the log has none, and is read whole once. */
  async #meta(head: ConversationHead): Promise<Meta> {
    const meta = head.meta as Meta | undefined
    if (meta?.v === 2) return meta
    const record = 'log' in head ? (head as ConversationRecord) : await this.store.getConversation(head.id)
    const state = record?.state as StoredState | undefined
    return { v: 2, requests: state?.requests ?? [], messages: record ? this.#fold(record).messages.length : 0 }
  }
}

function tokenKey(secret: string): Buffer {
  return createHash('sha256').update('mcp-bridge conversation tokens\0').update(secret).digest()
}

function sealToken(event: TranscriptEvent, secret: string): TranscriptEvent {
  if (event.type !== 'tool_call' || event.token === undefined) return event
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', tokenKey(secret), iv)
  const sealed = Buffer.concat([cipher.update(event.token, 'utf8'), cipher.final()])
  return { ...event, token: Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url') }
}

function openToken(event: TranscriptEvent, secret: string): TranscriptEvent {
  if (event.type !== 'tool_call' || event.token === undefined) return event
  const bytes = Buffer.from(event.token, 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', tokenKey(secret), bytes.subarray(0, 12))
  decipher.setAuthTag(bytes.subarray(12, 28))
  const token = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')
  return { ...event, token }
}
