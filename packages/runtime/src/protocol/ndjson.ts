/**
 * Newline-delimited JSON over a fetch body: one event per line. Lines are split on "\n" only
 * after decoding, so a multi-byte character split across chunks is never corrupted.
 */
import { ChatProtocolError } from '../errors/browser-errors.ts'

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line)
  } catch {
    throw new ChatProtocolError(`The response has a line that is not JSON: ${line.slice(0, 200)}`)
  }
}

/**
 * The values of an NDJSON body, one per line, as they arrive (a line that is not JSON throws `ChatProtocolError`).
 *
 * @example
 * ```ts
 * import { readNdjson } from '@mcp-bridge/runtime/client'
 *
 * const body = new Response('{"a":1}\n{"a":2}\n').body!
 * for await (const value of readNdjson(body)) console.log(value) // { a: 1 }, then { a: 2 }
 * ```
 */
export async function* readNdjson(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<unknown> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  try {
    for (;;) {
      if (signal?.aborted) return
      const { value, done } = await reader.read()
      buffered += decoder.decode(value ?? new Uint8Array(), { stream: !done })
      let newline = buffered.indexOf('\n')
      while (newline !== -1) {
        const line = buffered.slice(0, newline).trim()
        buffered = buffered.slice(newline + 1)
        if (line) yield parseLine(line)
        newline = buffered.indexOf('\n')
      }
      if (done) break
    }
    if (buffered.trim()) yield parseLine(buffered)
  } finally {
    reader.releaseLock()
  }
}

/**
 * One NDJSON line: the value as JSON and a newline.
 *
 * @example
 * ```ts
 * import { encodeNdjson } from '@mcp-bridge/runtime/client'
 *
 * encodeNdjson({ type: 'done' }) // '{"type":"done"}\n'
 * ```
 */
export function encodeNdjson(event: unknown): string {
  return `${JSON.stringify(event)}\n`
}
