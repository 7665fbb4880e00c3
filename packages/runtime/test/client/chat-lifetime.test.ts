/**
 * `dispose()` ends every effect of a chat controller: after it, no request leaves — not the
 * reconnect watch of a chat that lost its server, not the follow-up of a call still running
 * after a reload, not a request queued behind the response that was cut. Each case first shows
 * the effect happens without `dispose()`, so the test cannot pass by accident.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createChatController } from '../../src/client.ts'

interface Sent {
  method: string
  url: string
}

/** A fetch that records what was sent and answers with `answer` (a never-settling promise hangs until aborted). */
function recordingFetch(answer: (request: Sent, init: RequestInit | undefined) => Promise<Response>) {
  const sent: Sent[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = { method: init?.method ?? 'GET', url: String(input) }
    sent.push(request)
    return answer(request, init)
  }) as typeof globalThis.fetch
  return { sent, fetch }
}

function hangUntilAborted(init: RequestInit | undefined): Promise<Response> {
  return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true }))
}

/** A browser's storage that already remembers the key of the conversation named "main". */
const memoryStorage = () => {
  const data = new Map<string, string>([['mcp-bridge:chat:main', JSON.stringify({ id: 'c1aaaaaaaaaaaaaaaaaaaa', secret: 's'.repeat(43) })]])
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) }
}

/** A kept conversation whose one tool call is still running (its page went away mid-call). */
function runningSnapshot(): Response {
  return Response.json({
    id: 'c1',
    revision: 2,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'build a report' }] }],
    events: [
      { type: 'user_message', text: 'build a report' },
      { type: 'tool_call', callId: 'call_1', toolName: 'build_report', params: {}, token: 't' },
      { type: 'tool_progress', callId: 'call_1', message: 'step 1 of 3', progress: 1, total: 3 },
    ],
  })
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('a first visit', () => {
  it('asks the server for nothing: a key made just now has no conversation to restore', async () => {
    const { sent, fetch } = recordingFetch(() => Promise.resolve(new Response(null, { status: 404 })))
    const chat = createChatController({ fetch, id: 'main', storage: { getItem: () => null, setItem: () => {}, removeItem: () => {} } })
    await chat.restore()
    expect(sent).toEqual([])
    expect(chat.getState().status).toBe('ready')
    chat.dispose()
  })
})

describe('ChatController.dispose()', () => {
  it('stops the reconnect watch of a chat that lost its server', async () => {
    const unreachable = () => Promise.reject(new TypeError('fetch failed'))
    const control = recordingFetch(unreachable)
    const live = createChatController({ fetch: control.fetch })
    await live.sendMessage('hello')
    expect(live.getState().status).toBe('error')
    await vi.advanceTimersByTimeAsync(2_000)
    expect(control.sent.map((s) => s.method)).toEqual(['POST', 'OPTIONS']) // it watches…

    const watched = recordingFetch(unreachable)
    const chat = createChatController({ fetch: watched.fetch })
    await chat.sendMessage('hello')
    chat.dispose()
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(watched.sent.map((s) => s.method)).toEqual(['POST']) // …until disposed: nothing after
    live.dispose()
  })

  it('stops the follow-up of a call still running after a reload', async () => {
    const answer = (request: Sent) => Promise.resolve(request.method === 'GET' ? runningSnapshot() : new Response(null, { status: 500 }))
    const control = recordingFetch(answer)
    const live = createChatController({ fetch: control.fetch, id: 'main', storage: memoryStorage() })
    await live.restore()
    expect(live.getState().items.map((i) => i.kind)).toEqual(['user', 'tool'])
    await vi.advanceTimersByTimeAsync(1_999)
    expect(control.sent).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(control.sent).toHaveLength(2) // it looks again after 2 s (its progress moves on the page)…
    expect(live.getState().status).not.toBe('restoring') // …quietly: the page is not "restoring" meanwhile

    const followed = recordingFetch(answer)
    const chat = createChatController({ fetch: followed.fetch, id: 'main', storage: memoryStorage() })
    await chat.restore()
    chat.dispose()
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(followed.sent).toHaveLength(1) // …until disposed
    live.dispose()
  })

  it('a look again that is refused (a limit, a busy server) changes nothing on screen, and the next look goes on', async () => {
    let gets = 0
    const control = recordingFetch((request) => {
      if (request.method !== 'GET') return Promise.resolve(new Response(null, { status: 500 }))
      gets++
      return Promise.resolve(gets === 2 ? Response.json({ code: 'RATE_LIMITED', message: 'try again in 1 s' }, { status: 429 }) : runningSnapshot())
    })
    const chat = createChatController({ fetch: control.fetch, id: 'main', storage: memoryStorage() })
    await chat.restore()
    await vi.advanceTimersByTimeAsync(2_000) // the refused look
    expect(gets).toBe(2)
    expect(chat.getState()).toMatchObject({ status: 'ready', error: undefined })
    expect(chat.getState().items.map((i) => i.kind)).toEqual(['user', 'tool'])
    await vi.advanceTimersByTimeAsync(2_000)
    expect(gets).toBe(3) // and it keeps following
    chat.dispose()
  })

  it('cuts the response being read and sends nothing queued behind it; the next use starts afresh', async () => {
    const { sent, fetch } = recordingFetch((_, init) => hangUntilAborted(init))
    const chat = createChatController({ fetch })
    const first = chat.sendMessage('one')
    await vi.advanceTimersByTimeAsync(0)
    const second = chat.sendMessage('two') // queued behind the first response
    await vi.advanceTimersByTimeAsync(0)
    expect(sent).toHaveLength(1)
    chat.dispose()
    await Promise.all([first, second])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(sent).toHaveLength(1)
    expect(chat.getState().status).toBe('ready')

    // StrictMode mounts again right after the cleanup: the controller still works.
    const third = chat.sendMessage('three')
    await vi.advanceTimersByTimeAsync(0)
    expect(sent).toHaveLength(2)
    chat.dispose()
    await third
  })
})
