/**
 * The finished tool: data a host can run (`createBridgeHost`, `createMcpServer`) and a build
 * can inspect (the Vite plugin reads `name`, `compiled`, `jsonSchema`, `warnings`). Body
 * functions are declared with method syntax on purpose: it keeps a specific tool assignable to
 * `AnyMcpTool`, which registries and hosts take.
 */
import type { Operation } from 'effection'
import type { z } from 'zod/v4'
import type { JsonSchema } from '../schema/json-schema.ts'
import type { ToolAnnotations, ToolIcon } from './tool-metadata.ts'
import type { ElicitViolation } from '../errors/violation.ts'
import type { CompiledElicits } from './compile-elicits.ts'
import type { AfterPhaseContext, McpToolContext, ServerPhaseContext } from './context.ts'
import type { ElicitsMap } from './elicits.ts'
import type { PlainFormSpec } from './plain-form.ts'

/**
 * What an MCP client must support to be offered a tool (`.requires({...})`): elicitation (default: when it declares keys) and sampling (default: no).
 */
export interface ToolRequirements {
  /** The client must support elicitation (default: true when `.elicits` declares any key). */
  elicitation: boolean
  /** The client must support sampling (default: false). */
  sampling: boolean
}

/**
 * Whether an MCP client that speaks the Tasks extension (`io.modelcontextprotocol/tasks`) gets
 * this tool's calls as tasks (`.taskSupport()`): `'optional'` — a task for a client that opts in,
 * a plain call for any other; `'required'` — only as a task (a client that does not opt in is
 * refused with -32021, naming the extension); `'forbidden'` — never a task. Default: `'optional'`
 * for a tool that may ask (it declares keys, or requires sampling), `'forbidden'` for one that
 * cannot.
 */
export type TaskSupport = 'forbidden' | 'optional' | 'required'

/**
 * The body of a tool defined with `.execute(...)`.
 */
export interface ExecuteBody<P extends z.ZodObject, E extends ElicitsMap, R> {
  readonly kind: 'execute'
  execute(params: z.output<P>, ctx: McpToolContext<E>): Operation<R>
}

/**
 * What `.handoff({...})` takes: `before` on the server (once), `client` (the questions), `after` on the server (once; its value is the result).
 */
export interface HandoffPhases<P extends z.ZodObject, E extends ElicitsMap, H, CR, R> {
  /** Server-side setup; runs once. Its value is kept and handed to `client` and `after`. */
  before(params: z.output<P>, ctx: ServerPhaseContext): Operation<H>
  /** The interactive phase: elicit, sample, log, notify. */
  client(handoff: H, ctx: McpToolContext<E>): Operation<CR>
  /** Server-side finalisation; runs once. Its value is the tool result. */
  after(handoff: H, clientResult: CR, ctx: AfterPhaseContext): Operation<R>
}

/**
 * The body of a tool defined with `.handoff({...})`.
 */
export interface HandoffBody<P extends z.ZodObject, E extends ElicitsMap, R> extends HandoffPhases<P, E, unknown, unknown, R> {
  readonly kind: 'handoff'
}

/**
 * A tool's JSON Schemas as MCP lists them: `inputSchema` from its parameters, `outputSchema` from `.returns()`.
 */
export interface McpToolJsonSchemas {
  /** The parameters as JSON Schema (zod 4, io: input): the MCP `inputSchema`. */
  readonly parameters: JsonSchema
  /** The result, with `.returns()` (zod 4, io: output): the MCP `outputSchema`. */
  readonly output?: JsonSchema
}

/**
 * A finished tool, as `createMcpTool(...)...execute()` makes it: data a host runs (`createChatHandler`, `createMcpServer`) and a build inspects (name, compiled keys, JSON Schemas, warnings).
 */
export interface McpTool<N extends string = string, P extends z.ZodObject = z.ZodObject, E extends ElicitsMap = ElicitsMap, R = unknown> {
  readonly kind: 'mcp-tool'
  readonly name: N
  /** For people (tool cards, MCP clients' lists); `undefined`: show the name. */
  readonly title: string | undefined
  readonly description: string | undefined
  /** MCP tool annotations (`.annotations()`), hints for clients. */
  readonly annotations: Readonly<ToolAnnotations> | undefined
  /** OAuth scopes a token must grant to call it over an MCP endpoint with `auth` (`.scopes()`). */
  readonly scopes: readonly string[]
  readonly icons: readonly ToolIcon[] | undefined
  /** The result's schema (`.returns()`): every result is parsed with it before it is reported. */
  readonly returns: z.ZodObject | undefined
  readonly parameters: P
  /** The keys as declared (their types drive `ctx.elicit` and the plugin handlers). */
  readonly elicits: E
  /** Each declared key compiled once: response and context schemas, MCP requested schema. */
  readonly compiled: CompiledElicits
  readonly requirements: Readonly<ToolRequirements>
  /** How MCP Tasks clients get its calls (`.taskSupport()`; see `TaskSupport` for the default). */
  readonly taskSupport: TaskSupport
  readonly jsonSchema: McpToolJsonSchemas
  /** How each key's question reads in a plain MCP form (`.plainForm()`); keys without one read as declared. */
  readonly plainForms: Readonly<Record<string, PlainFormSpec>>
  /** Schema warnings (keywords clients may not enforce); errors throw at definition time. */
  readonly warnings: readonly ElicitViolation[]
  readonly body: ExecuteBody<P, E, R> | HandoffBody<P, E, R>
}

// `any` is confined to this alias: it is the "some tool" type registries and hosts accept
// (a specific tool's handler map is not assignable to a map of unknown handlers otherwise).
/**
 * Any tool, whatever its name, parameters, keys and result: what registries, hosts and servers take.
 */
export type AnyMcpTool = McpTool<string, z.ZodObject, ElicitsMap, unknown>

/**
 * The validated parameters of a tool type (what its body and `req.params` get).
 */
export type ToolParams<T> = T extends McpTool<string, infer P, ElicitsMap, unknown> ? z.output<P> : never
/**
 * The result type of a tool type.
 */
export type ToolResult<T> = T extends McpTool<string, z.ZodObject, ElicitsMap, infer R> ? R : never
/**
 * The `.elicits({...})` map of a tool type.
 */
export type ToolElicits<T> = T extends McpTool<string, z.ZodObject, infer E, unknown> ? E : never

/**
 * Whether a value is a tool made with `createMcpTool(...)` and ended with `.execute()` or `.handoff()`.
 *
 * @example
 * ```ts
 * import { isMcpTool } from '@mcp-bridge/runtime'
 * import * as module from './tools.ts'
 *
 * const tools = Object.values(module).filter(isMcpTool) // what a registry of your own would hold
 * ```
 */
export function isMcpTool(value: unknown): value is AnyMcpTool {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'mcp-tool'
}
