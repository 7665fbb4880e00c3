/**
 * A turn appends what it adds to its conversation and reads only the conversation's head: what it
 * costs the store does not grow with what came before (issue 28). Measured as the store sees it —
 * whole reads and bytes written per turn — through a store that counts, around a real SQLite file;
 * and conversations kept whole by earlier versions (SQLite rows, Redis keys) are read and carried on.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import { type CallStore, type ChatHandler, createChatHandler, createRedisStore, createSqliteStore } from '../../src/server.ts'
import type { ChatController, ConversationKey, ConversationSnapshot, ConversationStorage } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { hashToken } from '../../src/calls/call-record.ts'
import { type RedisProcess, startRedis } from '../support/redis-server.ts'
import { chatPage, memoryStorage } from '../support/chat-page.ts'

const page = (handler: ChatHandler, storage: ConversationStorage): ChatController => chatPage(handler, storage, [])

const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-appends-'))
let redis: RedisProcess
beforeAll(async () => void (redis = await startRedis()), 60_000)
afterAll(async () => {
  await redis?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const model = createScriptedModel({ fallback: 'Noted.' })

/** The store, with what each call costs it: whole reads, and bytes written (appended entries, states written whole). */
function counting(store: CallStore) {
  const seen = { wholeReads: 0, written: 0, folds: 0 }
  const counted: CallStore = {
    ...store,
    getConversation: (id) => (id.startsWith('client-index.') || seen.wholeReads++, store.getConversation(id)),
    appendConversation: (a) => ((seen.written += a.entries.reduce<number>((n, e) => n + JSON.stringify(e).length, 0)), store.appendConversation(a)),
    putConversation: (r) => ((seen.written += JSON.stringify(r.state ?? null).length), r.id.startsWith('client-index.') || seen.folds++, store.putConversation(r)),
  }
  return { store: counted, seen }
}

describe('a turn costs the store what it adds, not what came before', () => {
  it('40 turns of 12 kB: no turn reads the conversation whole but the few that fold it; each writes its own bytes; a reload shows the latest turns', async () => {
    const sqlite = await createSqliteStore({ path: join(dir, 'appends.db') })
    const { store, seen } = counting(sqlite)
    const maxTranscriptBytes = 100_000
    // Forty turns in a few ms, each resending the conversation: past any one client's byte budget, which is not what this measures.
    const handler = createChatHandler({ tools: [], model, store, limits: { maxTranscriptBytes, clientBytesPerSecond: 1 << 30 } })
    const storage = memoryStorage()
    const chat = page(handler, storage)
    await chat.restore()
    const perTurn: Array<{ wholeReads: number; written: number }> = []
    for (let turn = 0; turn < 40; turn++) {
      const before = { ...seen }
      await chat.sendMessage(`${turn} ${'x'.repeat(12_000)}`)
      perTurn.push({ wholeReads: seen.wholeReads - before.wholeReads, written: seen.written - before.written })
    }
    // What one turn adds: its message (≈12 kB) in the messages and in the transcript, the reply twice.
    const own = 2 * 12_100
    const ordinary = perTurn.filter((t) => t.wholeReads === 0)
    // Folds: each reads the conversation once, and comes when the log outgrew the state it folds into.
    expect(seen.folds).toBeGreaterThanOrEqual(2)
    expect(perTurn.length - ordinary.length).toBe(seen.folds)
    for (const turn of perTurn) expect(turn.wholeReads).toBeLessThanOrEqual(1)
    for (const turn of ordinary) expect(turn.written).toBeLessThan(own + 2_000)
    // The last ordinary turn writes what the second did, though the conversation is 40 times longer.
    expect(ordinary.at(-1)!.written).toBeLessThan(ordinary[1]!.written * 1.1)
    // And all of them, folds included, at most three times what the turns added: a fold is paid for by the appends before it.
    expect(seen.written).toBeLessThan(3 * 40 * own)
    chat.dispose()
    // A reload: every message there for the model, the transcript's latest turns within the bound.
    const key = JSON.parse(storage.data.get('mcp-bridge:chat:main')!) as ConversationKey
    const snapshot = (await (
      await handler(new Request(`http://127.0.0.1/api/chat?conversation=${key.id}`, { headers: { authorization: `Bearer ${key.secret}` } }))
    ).json()) as ConversationSnapshot
    expect(snapshot.messages).toHaveLength(80)
    expect(snapshot.messages.at(-2)!.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^39 x/) })
    expect(Buffer.byteLength(JSON.stringify(snapshot.events))).toBeLessThanOrEqual(maxTranscriptBytes)
    const users = snapshot.events.flatMap((e) => (e.type === 'user_message' ? [Number(e.text.split(' ')[0])] : []))
    expect(users.at(-1)).toBe(39)
    expect(users).toEqual(Array.from({ length: users.length }, (_, i) => 40 - users.length + i))
    const reloaded = page(handler, storage)
    await reloaded.restore()
    await reloaded.sendMessage('one more')
    expect(reloaded.getState().items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Noted.' })
    reloaded.dispose()
    await handler.close()
    await sqlite.close()
  }, 60_000)
})

describe('conversations kept whole by earlier versions', () => {
  const secret = 's'.repeat(43)
  const key: ConversationKey = { id: 'legacyConversation0001', secret }
  const legacy = (now: number) => ({
    id: key.id,
    secretHash: hashToken(secret),
    state: {
      v: 1,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hello from before' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
      ],
      events: [
        { type: 'user_message', text: 'hello from before', at: now - 1000 },
        { type: 'text_delta', text: 'Noted.', at: now - 900 },
      ],
      requests: ['old-request'],
    },
    revision: 3,
    updatedAt: now - 900,
    expiresAt: now + 3_600_000,
  })
  const turn = (extra: Record<string, unknown>) =>
    new Request('http://127.0.0.1/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'and now' }] }], conversation: key, ...extra }),
    })
  const snapshotOf = async (handler: ChatHandler) =>
    (await (await handler(new Request(`http://127.0.0.1/api/chat?conversation=${key.id}`, { headers: { authorization: `Bearer ${secret}` } }))).json()) as ConversationSnapshot

  /** The conversation as it was, its retried request still known; a turn on its revision carries it on, appended. */
  async function carriesOn(store: CallStore) {
    const handler = createChatHandler({ tools: [], model, store })
    const before = await snapshotOf(handler)
    expect(before).toMatchObject({
      revision: 3,
      messages: legacy(0).state.messages,
      events: [
        { type: 'user_message', text: 'hello from before' },
        { type: 'text_delta', text: 'Noted.' },
      ],
    })
    const retried = await handler(turn({ requestId: 'old-request' }))
    expect([retried.status, ((await retried.json()) as { code: string }).code]).toEqual([409, 'REQUEST_ALREADY_APPLIED'])
    const next = await handler(
      turn({ requestId: 'new-request', conversationRevision: 3, messages: [...legacy(0).state.messages, { role: 'user', content: [{ type: 'text', text: 'and now' }] }] }),
    )
    expect(next.status).toBe(200)
    await next.text()
    const after = await snapshotOf(handler)
    expect(after.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(['hello from before', 'Noted.', 'and now', 'Noted.'])
    expect(after.events.map((e) => e.type)).toEqual(['user_message', 'text_delta', 'user_message', 'text_delta'])
    expect((await store.getConversation(key.id))!.log.length).toBeGreaterThan(0)
    await handler.close()
  }

  it('SQLite: a row of the whole record (no head column yet) is read, and carried on in the new form', async () => {
    const path = join(dir, 'legacy.db')
    const { default: Database } = (await import('libsql')) as unknown as {
      default: new (path: string) => { exec(sql: string): void; prepare(sql: string): { run(...a: unknown[]): unknown }; close(): void }
    }
    const old = new Database(path)
    old.exec('CREATE TABLE mcp_bridge_conversations (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, expires_at INTEGER NOT NULL, record TEXT NOT NULL)')
    const record = legacy(Date.now())
    old.prepare('INSERT INTO mcp_bridge_conversations VALUES (?, ?, ?, ?)').run(record.id, record.revision, record.expiresAt, JSON.stringify(record))
    old.close()
    const store = await createSqliteStore({ path })
    await carriesOn(store)
    await store.close()
  }, 30_000)

  it('Redis: a conversation under its old key is moved to the new keys at its first read, and carried on', async () => {
    const keyPrefix = 'legacy-test:'
    const raw = new Redis(redis.url)
    const record = legacy(Date.now())
    await raw.hset(`${keyPrefix}conversation:${key.id}`, 'rev', '3', 'body', JSON.stringify(record))
    await raw.pexpireat(`${keyPrefix}conversation:${key.id}`, record.expiresAt)
    const store = await createRedisStore({ url: redis.url, keyPrefix })
    await carriesOn(store)
    expect(await raw.exists(`${keyPrefix}conversation:${key.id}`)).toBe(0)
    expect(await raw.exists(`${keyPrefix}conversation:{${key.id}}`)).toBe(1)
    await store.close()
    raw.disconnect()
  }, 30_000)
})
