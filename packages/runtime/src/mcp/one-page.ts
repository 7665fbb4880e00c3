/**
 * Every list this server answers (tools, prompts, resources, resource templates) fits on one page,
 * so it issues no cursor — and a cursor a client sends anyway is not one of its own: refused as
 * invalid params, the same way on every list, rather than ignored on some.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'

/** Throw -32602 if `cursor` was given; `what`: what the list holds, one of it ("tool"). */
export function refuseCursor(cursor: unknown, what: string): void {
  if (cursor === undefined) return
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown cursor "${String(cursor).slice(0, 100)}": this server lists every ${what} on one page.`)
}
