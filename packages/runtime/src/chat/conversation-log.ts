/**
 * Conversations in the call store, so a reload (or a second tab) finds the chat as it was: the
 * messages to continue with and the transcript of what the user saw (see `transcript.ts`).
 *
 * The client names a conversation with a random id and proves it owns it with a random secret;
 * the store keeps only the secret's hash. The transcript holds each call's token (a restored
 * question must be answerable), so tokens are stored sealed with a key derived from the secret:
 * a copy of the store alone answers no call. A turn writes at its start, whenever a call asks or
 * ends, and at its end — so a server that dies mid-turn has stored everything up to its last
 * question. Writes go on top of the revision they read, retried on a conflict (two tabs of one
 * conversation each add their own events; the messages are the later turn's).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { hashToken, tokenMatches } from '../calls/call-record.ts'
import type { CallStore, ConversationRecord } from '../calls/stores/call-store.ts'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import type { ConversationKey, ConversationSnapshot, TranscriptEvent } from '../protocol/chat-wire.ts'
import type { McpMessage } from '../sampling/content.ts'
import { appendToTranscript, boundTranscript, lastTurnOf } from './transcript.ts'
import type { Clock } from '../time/clock.ts'

/** Writes that lost a race this many times in a row give up (someone is rewriting it in a loop). */
const MAX_WRITE_ATTEMPTS = 8

export class ConversationWriteError extends McpBridgeError {
  readonly code = 'CONVERSATION_WRITE_FAILED'
}

interface StoredState {
  v: 1
  messages: McpMessage[]
  events: TranscriptEvent[]
  /** The request ids of the latest turns, so a retried turn is recognised (`MAX_REQUEST_IDS`). */
  requests?: string[]
}

/** Request ids remembered per conversation: far more than a client retries. */
const MAX_REQUEST_IDS = 64

/** Who writes a conversation: the client's turn (with its secret) or a recovered call (without). */
interface Writer {
  id: string
  /** The stored record is this conversation (its secret). */
  owns(record: ConversationRecord): boolean
  /** The secret's hash, for a conversation written for the first time. */
  secretHash(): string
  /** An event as it may be stored (a call's token sealed, or left out). */
  seal(event: TranscriptEvent): TranscriptEvent
}

/** Records one turn: events as they are emitted, written at each `checkpoint`. */
export interface TurnRecorder {
  record(event: TranscriptEvent): void
  checkpoint(messages: readonly McpMessage[]): Promise<void>
  /** The conversation's revision as this turn last wrote (or read) it. */
  revision(): number | undefined
}

export class ConversationLog {
  constructor(
    private readonly store: CallStore,
    private readonly ttlMs: number,
    private readonly clock: Clock,
    /** The transcript is kept within this many bytes; older turns go first. */
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
    const writer: Writer = { id: key.id, owns: (r) => tokenMatches(r.secretHash, key.secret), secretHash: () => hashToken(key.secret), seal: (e) => sealToken(e, key.secret) }
    const record = await this.store.getConversation(key.id)
    if (record && !writer.owns(record)) return 'forbidden'
    // A request from a page that has not seen the latest (another tab answered, a recovered call
    // ended): nothing of it runs, and its messages never overwrite what is stored.
    if (knownRevision !== undefined && (record?.revision ?? 0) !== knownRevision) return 'moved on'
    if (!record) await onNew?.()
    let state = record?.state as StoredState | undefined
    let revision = record?.revision
    if (requestId !== undefined) {
      // Claimed with a write on top of what was read: of two tries of one request (a retry whose
      // first response was lost, two tabs), exactly one goes on.
      let seen = false
      await this.#amend(
        writer,
        (before) => {
          seen = before?.requests?.includes(requestId) ?? false
          state = before
          return seen ? undefined : { v: 1, messages: [], events: [], ...before, requests: [...(before?.requests ?? []), requestId].slice(-MAX_REQUEST_IDS) }
        },
        'its request id was not recorded',
      ).then((written) => (revision = written ?? revision))
      if (seen) return 'already applied'
    }
    if (replaceLastTurn) {
      // The last turn goes from the transcript (a reload shows the new one in its place) — unless
      // one of its calls still runs or waits: its card and question must stay answerable.
      let open = false
      await this.#amend(
        writer,
        (before) => {
          const turn = lastTurnOf(before?.events ?? [])
          open = turn.open.length > 0
          state = before
          return open || turn.start < 0 ? undefined : { ...before!, events: before!.events.slice(0, turn.start) }
        },
        'its last turn was not replaced',
      ).then((written) => (revision = written ?? revision))
      if (open) return 'turn still open'
    }
    return this.#recorder(writer, state && JSON.stringify(state.messages), revision)
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
    const recorder = this.#recorder(
      { id, owns: (r) => r.secretHash === secretHash, secretHash: () => secretHash, seal: (e) => (e.type === 'tool_call' ? { ...e, token: undefined } : e) },
      JSON.stringify((record.state as StoredState).messages),
      record.revision,
    )
    return { messages: (record.state as StoredState).messages, recorder }
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
    if (!(await this.store.putConversation({ ...record, revision: record.revision + 1, updatedAt: now, expiresAt: now }))) return this.delete(key)
    const calls = (record.state as StoredState).events.flatMap((e) => {
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
    const state = record.state as StoredState
    return { id: record.id, revision: record.revision, messages: state.messages, events: state.events.map((e) => openToken(e, key.secret)) }
  }

  #recorder(key: Writer, storedMessages: string | undefined, revision: number | undefined): TurnRecorder {
    let pending: TranscriptEvent[] = []
    let writes = Promise.resolve()
    /** The messages as last stored: a checkpoint with no new events and the same messages writes nothing. */
    let written = storedMessages
    /** `text`: the messages as JSON, taken at the checkpoint (the turn goes on changing them). */
    const write = async (text: string) => {
      if (pending.length === 0 && text === written) return
      const messages = JSON.parse(text) as McpMessage[]
      const events = pending
      pending = []
      revision =
        (await this.#amend(
          key,
          (before) => ({ ...before, v: 1, messages, events: boundTranscript(events.reduce(appendToTranscript, before?.events ?? []), this.maxTranscriptBytes) }),
          "the turn's last events were not saved",
        )) ?? revision
      written = text
    }
    /** The last event recorded was text: the next delta goes on the same reply. */
    let inText = false
    const clock = this.clock
    return {
      record(event) {
        // A reply's first delta says when it began, for the times a reload shows.
        if (event.type === 'text_delta' && !inText) event = { ...event, at: clock.now() }
        inText = event.type === 'text_delta'
        pending.push(key.seal(event))
      },
      checkpoint(messages) {
        const text = JSON.stringify(messages)
        writes = writes.then(() => write(text))
        return writes
      },
      revision: () => revision,
    }
  }

  /**
   * Write the conversation on top of what is stored: `change` gets the stored state (none for a
   * new conversation) and returns the next, or `undefined` to write nothing. Retried on a
   * conflict (another tab, a recovered call). Resolves to the revision written, if it wrote.
   */
  async #amend(key: Writer, change: (state: StoredState | undefined) => StoredState | undefined, lost: string): Promise<number | undefined> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await this.store.getConversation(key.id)
      if (current && !key.owns(current)) {
        throw new ConversationWriteError(`Conversation ${key.id} belongs to another secret; nothing was written.`)
      }
      const state = change(current?.state as StoredState | undefined)
      if (!state) return undefined
      const now = this.clock.now()
      const next: ConversationRecord = {
        id: key.id,
        secretHash: current?.secretHash ?? key.secretHash(),
        state,
        revision: (current?.revision ?? 0) + 1,
        updatedAt: now,
        expiresAt: now + this.ttlMs,
      }
      if (await this.store.putConversation(next)) return next.revision
    }
    throw new ConversationWriteError(`Conversation ${key.id} changed ${MAX_WRITE_ATTEMPTS} times while this turn tried to save it; ${lost}.`)
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
