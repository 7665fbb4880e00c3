/**
 * `createPlugin(tool).onElicit({...}).build()`: pairs a tool with its UI handlers. The handler
 * object must name every declared key and no other — enforced by the types, and checked again
 * at run time for JavaScript callers and objects built dynamically.
 */
import { isPlainObject } from '../schema/json-schema.ts'
import { isMcpTool, type AnyMcpTool } from '../tool/mcp-tool.ts'
import type { ElicitHandlers, McpPlugin, PluginClientRegistration } from './types.ts'
import type { ToolElicits, ToolParams } from '../tool/mcp-tool.ts'
import { PluginDefinitionError } from '../errors/definition-errors.ts'

/**
 * What `createPlugin(tool)` returns: `.onElicit({...})` takes one handler per key the tool declares.
 */
export interface PluginBuilder<T extends AnyMcpTool> {
  /** One generator per declared elicitation key: `function* (req, ctx) { ...; return { action, content } }`. */
  onElicit(handlers: ElicitHandlers<ToolElicits<T>, ToolParams<T>>): BuildablePlugin<T>
}

/**
 * A plugin whose handlers are given: `.build()` makes the `McpPlugin`.
 */
export interface BuildablePlugin<T extends AnyMcpTool> {
  build(): McpPlugin<T>
}

/**
 * Pairs a tool with the UI that answers its questions in the app's chat: one generator per declared
 * elicitation key (no more, no fewer: a type error, and `PluginDefinitionError` at run time). The Vite plugin
 * keeps only the handlers in the client bundle; the tool's body stays on the server.
 *
 * @example
 * ```tsx
 * import { createPlugin } from '@mcp-bridge/runtime'
 * import { bookFlight } from './tools.ts'
 * import { FlightList, SeatMap } from './components.tsx'
 *
 * export default createPlugin(bookFlight)
 *   .onElicit({
 *     *pickFlight(req, ctx) {
 *       const flightId = yield* ctx.render(FlightList, { flights: req.context.flights })
 *       return { action: 'accept', content: { flightId } }
 *     },
 *     *pickSeat(_req, ctx) {
 *       return { action: 'accept', content: yield* ctx.render(SeatMap, {}) }
 *     },
 *   })
 *   .build()
 * ```
 */
export function createPlugin<T extends AnyMcpTool>(tool: T): PluginBuilder<T> {
  if (!isMcpTool(tool)) {
    throw new PluginDefinitionError(
      String((tool as { name?: unknown } | undefined)?.name ?? '?'),
      'createPlugin(tool) takes a tool made with createMcpTool(...)...execute() / .handoff()',
    )
  }
  return {
    onElicit(handlers) {
      checkHandlers(tool, handlers)
      const frozen = Object.freeze({ ...handlers }) as ElicitHandlers<ToolElicits<T>, ToolParams<T>>
      return {
        build(): McpPlugin<T> {
          const client: PluginClientRegistration<T> = Object.freeze({
            kind: 'mcp-plugin-client',
            toolName: tool.name,
            compiled: tool.compiled,
            handlers: frozen,
          })
          return Object.freeze({
            kind: 'mcp-plugin',
            name: tool.name,
            server: Object.freeze({ tools: Object.freeze([tool]) as readonly [T] }),
            client,
            mcp: tool,
          })
        },
      }
    },
  }
}

function checkHandlers(tool: AnyMcpTool, handlers: unknown): void {
  if (!isPlainObject(handlers)) {
    throw new PluginDefinitionError(tool.name, '.onElicit() takes an object with one handler per elicitation key')
  }
  const declared = Object.keys(tool.elicits)
  const given = Object.keys(handlers)
  const missing = declared.filter((k) => !given.includes(k))
  const extra = given.filter((k) => !declared.includes(k))
  const problems: string[] = []
  if (missing.length) problems.push(`no handler for ${missing.map((k) => `"${k}"`).join(', ')}`)
  if (extra.length) problems.push(`handlers for undeclared key(s) ${extra.map((k) => `"${k}"`).join(', ')}`)
  for (const k of given) {
    if (declared.includes(k) && typeof handlers[k] !== 'function') problems.push(`the handler for "${k}" is not a function`)
  }
  if (problems.length) {
    throw new PluginDefinitionError(
      tool.name,
      `${problems.join('; ')}. .onElicit({...}) needs exactly the keys of .elicits({...}): ${declared.map((k) => `"${k}"`).join(', ') || '(none)'}.`,
    )
  }
}

/**
 * Whether a value is a plugin made with `createPlugin(...).onElicit({...}).build()` (what discovery and `useChat` look for).
 *
 * @example
 * ```ts
 * import { isMcpPlugin } from '@mcp-bridge/runtime'
 * import * as module from './tools/book-flight/plugin.tsx'
 *
 * const plugins = Object.values(module).filter(isMcpPlugin)
 * ```
 */
export function isMcpPlugin(value: unknown): value is McpPlugin {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'mcp-plugin'
}
