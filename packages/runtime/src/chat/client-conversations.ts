/**
 * How many conversations one client keeps: any client can start one with a random id, so without
 * a bound one client could fill the store (each holds up to `maxBodyBytes` of messages and
 * `maxTranscriptBytes` of transcript). The store keeps, per client, the ids of its conversations
 * in the order they began; past `max`, the oldest is forgotten (it expires now: a reload of it
 * finds nothing and starts anew). One read and one write when a conversation begins, none per turn.
 *
 * The index is a conversation record of its own, under an id no client can name (conversation
 * ids have no `.`), written on top of the revision it read like every other record.
 */
import { createHash } from 'node:crypto'
import type { CallStore } from '../calls/stores/call-store.ts'
import type { Clock } from '../time/clock.ts'

/** Writes that lost a race this many times in a row give up (the conversation is kept anyway). */
const MAX_ATTEMPTS = 8

interface Index {
  v: 1
  ids: string[]
}

export class ClientConversations {
  constructor(
    private readonly store: CallStore,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  /** Count conversation `id` as `client`'s; forget its oldest ones past the bound. */
  async admit(client: string, id: string): Promise<void> {
    const indexId = `client-index.${createHash('sha256').update(client).digest('base64url')}`
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.store.getConversation(indexId)
      const ids = ((current?.state as Index | undefined)?.ids ?? []).filter((known) => known !== id)
      ids.push(id)
      const forgotten = ids.splice(0, Math.max(0, ids.length - this.max))
      const now = this.clock.now()
      const written = await this.store.putConversation({
        id: indexId,
        secretHash: '',
        state: { v: 1, ids } satisfies Index,
        revision: (current?.revision ?? 0) + 1,
        updatedAt: now,
        expiresAt: now + this.ttlMs,
      })
      if (!written) continue
      await Promise.all(forgotten.map((old) => this.#expire(old)))
      return
    }
  }

  /** A conversation past the bound: written as expired, so every store reads it as gone. */
  async #expire(id: string): Promise<void> {
    const head = await this.store.getConversationHead(id)
    if (!head) return
    const now = this.clock.now()
    await this.store.putConversation({ ...head, state: undefined, revision: head.revision + 1, updatedAt: now, expiresAt: now })
  }
}
