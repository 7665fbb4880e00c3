/**
 * The stdio wire, answering what the SDK's own transport drops: a line that is not JSON gets
 * `-32700 Parse error` and a line that is JSON but not a JSON-RPC message gets `-32600 Invalid
 * Request` (JSON-RPC 2.0 §5.1, with `id: null`), and the server keeps serving. The SDK's
 * `StdioServerTransport` still reads and writes; it skips non-JSON lines silently, so they are
 * answered by a line filter in front of it, and its schema failures through its `onerror`.
 */
import { StringDecoder } from 'node:string_decoder'
import { Transform, type Readable, type TransformCallback, type Writable } from 'node:stream'
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'

const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600
/** A partial line longer than this is passed on as is: the SDK's reader enforces its own limit on it. */
const MAX_PENDING_LINE = 10 * 1024 * 1024

export class JsonRpcStdioTransport implements Transport {
  onclose?: Transport['onclose']
  onerror?: Transport['onerror']
  onmessage?: Transport['onmessage']
  readonly #wire: StdioServerTransport

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    const lines = new JsonLines((error) => this.#answer(PARSE_ERROR, `Parse error: the line is not JSON (${error.message}).`))
    stdin.pipe(lines)
    this.#wire = new StdioServerTransport(lines, stdout)
    this.#wire.onmessage = (message: JSONRPCMessage) => this.onmessage?.(message)
    this.#wire.onclose = () => {
      stdin.unpipe(lines)
      this.onclose?.()
    }
    this.#wire.onerror = (error) => {
      // A line that parsed but is no JSON-RPC message: the SDK's schema check failed. The client is
      // told; the server's log is not (a client sending junk in a loop would write a dump a line).
      if (error.name === 'ZodError' || error.name === '$ZodError') return this.#answer(INVALID_REQUEST, 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message.')
      this.onerror?.(error)
    }
  }

  #answer(code: number, message: string): void {
    void this.#wire.send({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage).catch(() => {})
  }

  start(): Promise<void> {
    return this.#wire.start()
  }
  send(message: JSONRPCMessage): Promise<void> {
    return this.#wire.send(message)
  }
  close(): Promise<void> {
    return this.#wire.close()
  }
}

/** Passes on the lines that are JSON (and blank ones); reports each other line instead. */
class JsonLines extends Transform {
  readonly #decoder = new StringDecoder('utf8')
  #pending = ''

  constructor(private readonly onUnparsable: (error: Error) => void) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#pending += this.#decoder.write(chunk)
    for (let end = this.#pending.indexOf('\n'); end !== -1; end = this.#pending.indexOf('\n')) {
      this.#line(this.#pending.slice(0, end + 1))
      this.#pending = this.#pending.slice(end + 1)
    }
    if (this.#pending.length > MAX_PENDING_LINE) {
      this.push(this.#pending)
      this.#pending = ''
    }
    done()
  }

  #line(line: string): void {
    const text = line.trim()
    if (text) {
      try {
        JSON.parse(text)
      } catch (error) {
        this.onUnparsable(error as Error)
        return
      }
    }
    this.push(line)
  }
}
