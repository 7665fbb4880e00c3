/**
 * Bad params said as bad params. The SDK checks a request's params against the method's schema
 * before our handler runs, and says a failure as zod's issues dumped to JSON — for `tools/call`
 * as -32602 "Invalid tools/call request: [ { … } ]", for the other methods as a plain error, so
 * -32603 (an internal error) with the dump as its message. Each request handler this server
 * registers is wrapped (the SDK's `_wrapHandler` hook, documented for subclasses) so such a
 * failure reaches the client as -32602 with the problems in one line, as every other refusal
 * lists them: `Invalid params for tools/list: params.cursor: Invalid input: expected string,
 * received number`.
 */
import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server'
import type { z } from 'zod/v4'
import { formatIssues, summarizeIssues } from '../errors/issues.ts'

type RequestHandler = (request: unknown, ctx: unknown) => Promise<unknown>
type Wrapping = { _wrapHandler(method: string, handler: RequestHandler): RequestHandler }

/** From now on, every request handler registered on `server` says the SDK's params failures plainly. */
export function sayParamsPlainly(server: Server): void {
  const wrapping = server as unknown as Wrapping
  const wrap = wrapping._wrapHandler.bind(server)
  wrapping._wrapHandler = (method, handler) => {
    // Outside the SDK's own wrapping: `Server`'s checks `tools/call` requests there.
    const wrapped = wrap(method, handler)
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx)
      } catch (error) {
        const issues = zodIssuesIn(error)
        if (!issues) throw error
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${formatIssues(summarizeIssues(issues))}`)
      }
    }
  }
}

/** The zod issues a params failure of the SDK carries in its message, if `error` is one. */
function zodIssuesIn(error: unknown): z.core.$ZodIssue[] | undefined {
  if (!(error instanceof Error)) return undefined
  const sdkParams = error instanceof ProtocolError ? error.code === ProtocolErrorCode.InvalidParams : error.constructor === Error
  if (!sdkParams) return undefined
  const dump = error.message.slice(error.message.indexOf('['))
  if (!dump.startsWith('[')) return undefined
  try {
    const issues: unknown = JSON.parse(dump)
    const isIssue = (i: unknown) => typeof i === 'object' && i !== null && typeof (i as { code?: unknown }).code === 'string' && Array.isArray((i as { path?: unknown }).path)
    return Array.isArray(issues) && issues.length > 0 && issues.every(isIssue) ? (issues as z.core.$ZodIssue[]) : undefined
  } catch {
    return undefined
  }
}
