/**
 * The types of a plugin: a tool plus one client-side handler per declared elicitation key.
 * Handlers are typed from the tool, so a missing or extra key, a wrong context field or a wrong
 * answer shape is a compile error, not a runtime surprise.
 */
import type { Operation } from 'effection'
import type { IssueSummary } from '../errors/issues.ts'
import type { CompiledElicits } from '../tool/compile-elicits.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { ElicitContentInput, ElicitContextOf, ElicitKey, ElicitResult, ElicitsMap, ResponseSchemaOf } from '../tool/elicits.ts'
import type { FormContentOf } from './generated-form.ts'
import type { AnyMcpTool, McpTool, ToolElicits, ToolParams } from '../tool/mcp-tool.ts'

/** What `ctx.render` adds to a component's props. */
export interface RenderedProps<TResponse> {
  /** Resume the handler with this value. */
  onRespond(value: TResponse): void
  /** The user dismissed the UI: the elicitation is answered with `cancel`. */
  onCancel(): void
  /** Why the previous answer was refused (client- or server-side validation), if it was. */
  errors?: readonly IssueSummary[]
  /** True while the answer is on its way to the server: hold further input (a spinner is shown beside the UI). */
  sending?: boolean
}

/**
 * A UI component `ctx.render` can show: a function or class component taking its props plus
 * `RenderedProps`. Structural, so the core does not depend on React's types.
 */
export type UiComponent<P> = ((props: P) => unknown) | (abstract new (props: P) => unknown)

/** The response type a component reports through `onRespond`. */
export type ResponseOf<C> = C extends UiComponent<infer P> ? (P extends RenderedProps<infer T> ? T : never) : never

/** A component's own props, without what `render` adds. */
export type OwnProps<C> = C extends UiComponent<infer P> ? Omit<P, keyof RenderedProps<unknown>> : never

/**
 * What a plugin handler can do in the browser: render a component and wait for its answer, show the generated form, report progress; with the call's id, its abort signal and the errors of a refused answer.
 */
export interface PluginClientContext<TRequest extends ElicitRequest = ElicitRequest> {
  readonly callId: string
  /** Aborted when the tool call is cancelled (server abort, user leaving); the handler is halted. */
  readonly signal: AbortSignal
  readonly elicitRequest: TRequest
  /** Validation errors of the previous answer, when the handler runs again to correct it. */
  readonly errors: readonly IssueSummary[] | undefined
  /**
   * Show `Component` in the chat at the tool call's place and wait for its `onRespond` value.
   * The component receives `props`, `onRespond`, `onCancel` and `errors`.
   */
  render<C extends UiComponent<never>>(Component: C, props: OwnProps<C>): Operation<ResponseOf<C>>
  /**
   * Show the form generated from this key's schema (what a tool without a plugin gets) and wait
   * for its answer, typed with the key's response. `message` replaces the question's text.
   */
  generatedForm(options?: { message?: string }): Operation<ElicitResult<FormContentOf<TRequest>>>
  /** A progress line under the tool call while the handler works. */
  reportProgress(message: string): Operation<void>
}

/** The request a handler for `key` receives: typed `context`, response schema and call `params`. */
export type PluginElicitRequest<E extends ElicitsMap, K extends ElicitKey<E>, P = unknown> = ElicitRequest<K, ResponseSchemaOf<E[K]>, ElicitContextOf<E[K]>, P>

/**
 * A plugin's handler for one key: a generator that gets the typed request and the client context, and returns the answer (`{ action, content }`).
 */
export type ElicitHandler<E extends ElicitsMap, K extends ElicitKey<E>, P = unknown> = (
  req: PluginElicitRequest<E, K, P>,
  ctx: PluginClientContext<PluginElicitRequest<E, K, P>>,
) => Operation<ElicitResult<ElicitContentInput<E[K]>>>

/** Exactly one handler per declared key. `P`: the tool's parameters (what `req.params` holds). */
export type ElicitHandlers<E extends ElicitsMap, P = unknown> = { [K in ElicitKey<E>]: ElicitHandler<E, K, P> }

/** What `useChat({ plugins })` consumes. */
export interface PluginClientRegistration<T extends AnyMcpTool = AnyMcpTool> {
  readonly kind: 'mcp-plugin-client'
  readonly toolName: T['name']
  /** The tool's compiled keys: to decode questions and validate answers before they are sent. */
  readonly compiled: CompiledElicits
  readonly handlers: ElicitHandlers<ToolElicits<T>, ToolParams<T>>
}

/**
 * A tool and its UI handlers, as `createPlugin(...).build()` makes it: `.server` for the chat engine, `.client` for `useChat`, `.mcp` for an MCP server.
 */
export interface McpPlugin<T extends AnyMcpTool = AnyMcpTool> {
  readonly kind: 'mcp-plugin'
  readonly name: T['name']
  /** What the chat engine registers. */
  readonly server: { readonly tools: readonly [T] }
  /** What the client registers (`useChat({ plugins: [plugin.client] })`). */
  readonly client: PluginClientRegistration<T>
  /** The same tool, to serve over MCP (`createMcpServer({ tools: [plugin.mcp] })`). */
  readonly mcp: T
}

export type { McpTool }
