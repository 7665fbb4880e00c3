/**
 * `createMcpServer`: serves the same tools the chat app runs to any MCP client, on the official
 * SDK (v2), which speaks both protocol generations: tool calls are written once in the
 * input-required style of 2026-07-28 (`serve-tool-call.ts`), and the SDK serves them to
 * 2025-11-25 clients by sending `elicitation/create` / `sampling/createMessage` itself.
 *
 * Each connection (stdio) or request (modern HTTP) gets a fresh SDK server from `createServer`,
 * and with it an `McpSession` its handlers share; the suspended calls and the requestState key
 * are shared by all of them. The server owns one Effection scope: the call registry and the HTTP
 * sessions live in children of it, every request's work runs as a task of it, and `close()`
 * ends it all.
 */
import { createScope, type Operation } from 'effection'
import { startSpan } from '../telemetry/tracing.ts'
import { loadOtel } from '../telemetry/otel.ts'
import { z } from 'zod/v4'
import { LOG_LEVELS } from '../tool/context.ts'
import { InMemoryServerEventBus, McpServer, type McpRequestContext, type ServerContext, type Transport } from '@modelcontextprotocol/server'
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio'
import { JsonRpcStdioTransport } from './stdio-transport.ts'
import { wrapClientRequests } from './client-requests.ts'
import { CallRegistry } from '../calls/call-registry.ts'
import { createCallStateCodec } from './call-state.ts'
import { clientCapabilitiesOf, missingRequirements, protocolVersionOf, type MissingCapability } from './client-capabilities.ts'
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from './http-handler.ts'
import { answerFromStore } from './session-resumption.ts'
import { sayParamsPlainly } from './params-errors.ts'
import { resolveServerOptions, type McpServerOptions } from './server-options.ts'
import { serveToolCall, type ToolCallService } from './serve-tool-call.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { speaksMcpApps, type ResolvedAppViews } from './app-views.ts'
import { McpSession } from './mcp-session.ts'
import { serveViewTool, VIEW_ANSWER_TOOL, VIEW_NEXT_TOOL, viewToolListing } from './view-tools.ts'
import { parkCall } from './serve-tool-call.ts'
import { mcpRecovery } from './recover-mcp-call.ts'
import { servePrompts } from './serve-prompts.ts'
import { serveResources } from './serve-resources.ts'
import { serveCompletions } from './serve-completions.ts'
import type { McpRound } from './mcp-call.ts'
import { McpServerClosedError } from '../errors/server-errors.ts'
import { refuseCursor } from './one-page.ts'
import { serveTasks, taskSnapshot, TASKS_EXTENSION } from './serve-tasks.ts'

/** Distinct hidden-tool messages remembered (`hiddenLogged`). */
const HIDDEN_LOGGED_MAX = 256

/**
 * An MCP server made with `createMcpServer`: serve it over stdio (`listen`) or Streamable HTTP (`createHandler`), tell subscribers a resource changed, and `close()` it.
 */
export interface BridgeMcpServer {
  readonly name: string
  readonly version: string
  readonly tools: ReadonlyMap<string, AnyMcpTool>
  /** A fresh SDK `McpServer` with the tools (an SDK `McpServerFactory`, for wiring of your own). */
  createServer(context?: McpRequestContext): McpServer
  /** Serve over stdio (or `transport`), to clients of either generation. */
  listen(options?: { transport?: Transport }): StdioServerHandle
  /** Streamable HTTP: `handler.fetch(request)` and `handler.node(req, res)`. */
  createHandler(options?: McpHttpOptions): McpHttpHandler
  /** Calls currently suspended, waiting for a client's answer. */
  readonly suspendedCalls: number
  /** Tell the clients that subscribed to `uri` (`resources/subscribe`) that it changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): Promise<void>
  /** Abort every suspended call (their `finally` blocks run). */
  close(): Promise<void>
}

const STATE_GRACE_SECONDS = 30

const setLevelParams = z.looseObject({
  level: z.enum(LOG_LEVELS, { error: (issue) => `level must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(issue.input)})` }),
})

/**
 * Serves tools (or plugins), prompts and resources to any MCP client, both protocol generations, over stdio or
 * Streamable HTTP; a question is an MCP elicitation, `ctx.sample` an MCP sampling request. Needs the optional
 * peer `@modelcontextprotocol/server`. `name`, `version` and `tools` are required; `limits` take the names every
 * surface uses (`CallLimits`) and MCP's own; bad options throw `OptionsError`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createMcpServer } from '@mcp-bridge/runtime/mcp'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * const mcp = createMcpServer({ name: 'my-app', version: '1.0.0', tools: serverTools, limits: { idleTimeoutMs: 10 * 60_000, maxCallsPerClient: 5 } })
 * mcp.listen() // stdio, for desktop clients and the MCP Inspector
 * // or Streamable HTTP:
 * createServer(mcp.createHandler().node).listen(3000, '127.0.0.1')
 * ```
 */
export function createMcpServer(input: McpServerOptions): BridgeMcpServer {
  const options = resolveServerOptions(input)
  // The state outlives its call's expiry a little, so an answer that comes just too late is told
  // why it is refused ("that tool call is over, it was aborted: no answer came within ...")
  // instead of the SDK's bare "Invalid or expired requestState".
  const ttlSeconds = Math.ceil(options.limits.idleTimeoutMs / 1000) + STATE_GRACE_SECONDS
  const { roundHold } = options
  const [scope, destroy] = createScope()
  let closed = false
  /** Whether clients may read and subscribe to resources at all. */
  const offersResources = options.apps !== undefined || options.resources.length > 0
  /** Changes told to 2026-07-28 HTTP clients on their listen streams, shared by every handler of this server. */
  const changes = new InMemoryServerEventBus(options.onError)
  /** The open connections that serve resources, with what each subscribed to. */
  const listening = new Set<{ server: McpServer['server']; subscriptions: Set<string> }>()
  /** The edge: an SDK handler's work, as a task of the server's scope. */
  // OpenTelemetry, if the app has it: loaded once; a request before it is there is served untraced.
  const tracingReady = loadOtel()
  /** A tools/call request as an MCP server span; the call's own spans hang below it (its traceparent). */
  async function traced<T>(request: { params: { name: string } }, ctx: ServerContext, serve: (traceParent: string | undefined) => Promise<T>): Promise<T> {
    await tracingReady
    const span = startSpan(`tools/call ${request.params.name}`, {
      kind: 'server',
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': request.params.name,
        'gen_ai.operation.name': 'execute_tool',
        'mcp.session.id': ctx.sessionId,
        'jsonrpc.request.id': String(ctx.mcpReq.id),
      },
    })
    try {
      const result = await serve(span.traceparent)
      if ((result as { isError?: boolean }).isError) span.set({ 'error.type': 'tool_error' })
      return result
    } catch (error) {
      span.fail(error)
      throw error
    } finally {
      span.end()
    }
  }
  const perform = <T>(operation: () => Operation<T>): Promise<T> => {
    if (closed) return Promise.reject(new McpServerClosedError(options.name))
    return scope.run(operation)
  }
  const service: ToolCallService = {
    tools: options.tools,
    calls: new CallRegistry<McpRound>({
      limits: options.limits,
      logger: options.logger,
      otherWaits: [roundHold],
      surface: 'mcp',
      clock: options.clock,
      scope,
      recover: (record) => mcpRecovery(service, record),
      ...(options.store && { store: options.store }),
    }),
    // Without a secret, the store's: a state outlives this process exactly as long as its call does.
    codec: createCallStateCodec(options.secret ?? (() => service.calls.store.sharedSecret()), ttlSeconds),
    maxArgumentBytes: options.limits.maxArgumentBytes,
    maxContextBytes: options.limits.maxContextBytes,
    roundHold,
    logger: options.logger,
    clientKey: options.clientKey,
    apps: options.apps,
    clock: options.clock,
    scope,
  }

  /**
   * What the server's log has told of hidden tools, by client name and the tools hidden: once
   * each, not once per session — a 2026-07-28 request is a session of its own, and a client listing
   * in a loop would otherwise write a line per request. Bounded: the oldest are forgotten.
   */
  const hiddenLogged = new Set<string>()

  function createServer(): McpServer {
    const mcp = new McpServer(
      { name: options.name, version: options.version, ...options.info },
      {
        // The lists are fixed for the server's life (`tools`, `prompts`, `resources` are given once):
        // no list_changed is ever sent, so none is promised (the SDK would say `listChanged: true`, and
        // a 2026-07-28 subscription would then wait for notifications that never come).
        capabilities: {
          tools: { listChanged: false },
          logging: {},
          ...(options.prompts.size > 0 && { prompts: { listChanged: false } }),
          ...((options.prompts.size > 0 || options.resources.length > 0) && { completions: {} }),
          ...(offersResources && { resources: { subscribe: true, listChanged: false } }),
          // Tasks are served to a client that opts in per request (2026-07-28): `serve-tasks.ts`.
          extensions: { [TASKS_EXTENSION]: {} },
        },
        ...(options.instructions !== undefined && { instructions: options.instructions }),
        requestState: { verify: (state: string, ctx: ServerContext) => service.codec.verify(state, ctx) },
        inputRequired: { maxRounds: options.limits.maxRounds, roundTimeoutMs: options.limits.idleTimeoutMs },
      },
    )
    // SEP-2243 (2026-07-28): the SDK's HTTP entry checks a call's `Mcp-Param-*` headers against its
    // tool's `x-mcp-header` declarations, which it looks up here; our tools are not registered with it.
    mcp.toolInputSchemaJson = (name) => options.tools.get(name)?.jsonSchema.parameters as Record<string, unknown> | undefined
    const server = mcp.server
    sayParamsPlainly(server)
    const session = new McpSession(options.clock)
    server.onerror = options.onError
    wrapClientRequests(server, (requestId, reason) => session.clientRefused(requestId, reason))
    server.setRequestHandler('tools/list', async (request, ctx) => {
      refuseCursor(request.params?.cursor, 'tool')
      const caps = clientCapabilitiesOf(server, ctx)
      // A tool that needs a capability the client lacks is not offered to it.
      const version = protocolVersionOf(server, ctx)
      const views = speaksMcpApps(caps) ? options.apps?.uris : undefined
      const listing = [...options.tools.values()].map((tool) => ({ tool, gaps: missingRequirements(tool, caps, version, views?.has(tool.name)) }))
      const offered = listing.flatMap(({ tool, gaps }) => (gaps.length > 0 ? [] : [tool]))
      await explainHidden(ctx, listing)
      // Said in the server's log too, once per session: the person who runs it sees an empty list
      // in their client (MCP Inspector's CLI declares no elicitation) and looks here.
      const hidden = hiddenTools(listing)
      const said = `${clientNameOf(server) ?? ''}\n${hidden.join('\n')}`
      if (hidden.length && !hiddenLogged.has(said)) {
        hiddenLogged.add(said)
        if (hiddenLogged.size > HIDDEN_LOGGED_MAX) hiddenLogged.delete(hiddenLogged.values().next().value!)
        options.logger.warn(
          { client: clientNameOf(server), hidden: listing.filter((l) => l.gaps.length > 0).map((l) => l.tool.name) },
          `tools/list: ${hidden.length} of ${listing.length} tools not listed for ${clientNameOf(server) ?? 'a client'} that does not declare what they need: ${hidden.join('; ')}. A client that cannot answer questions (no \`elicitation\` capability, as MCP Inspector's CLI) cannot call tools that ask; see Troubleshooting, "A client lists no tools".`,
        )
      }
      return {
        tools: [
          ...offered.map((tool) => ({
            name: tool.name,
            ...(tool.title !== undefined && { title: tool.title }),
            ...(tool.description !== undefined && { description: tool.description }),
            inputSchema: tool.jsonSchema.parameters as { type: 'object' },
            ...(tool.jsonSchema.output && { outputSchema: tool.jsonSchema.output as { type: 'object' } }),
            ...(tool.annotations && { annotations: { ...tool.annotations } }),
            ...(tool.icons && { icons: [...tool.icons] }),
            ...viewMeta(options.apps, tool.name),
          })),
          // Only a client that renders views may call the view's own tools (hosts keep them from the model).
          ...(views ? (viewToolListing() as Array<{ name: string; inputSchema: { type: 'object' } }>) : []),
        ],
      }
    })
    // The SDK's own handler answers a level it does not know with -32603 and its validator's raw
    // output; a bad level is bad params (-32602), said plainly. The level then filters this
    // session's tool logs (a 2026-07-28 request carries its own level, which the SDK applies).
    server.setRequestHandler('logging/setLevel', { params: setLevelParams }, (params) => {
      session.logLevel = params.level
      return {}
    })
    server.setRequestHandler('tools/call', (request, ctx) => {
      const { name } = request.params
      if (options.apps && (name === VIEW_NEXT_TOOL || name === VIEW_ANSWER_TOOL) && speaksMcpApps(clientCapabilitiesOf(server, ctx))) {
        const viewed = new Set(options.apps.uris.keys())
        return perform(() => serveViewTool(name, request.params.arguments, { desk: session.desk, calls: service.calls, viewed, park: (call) => parkCall(service, call, true) }))
      }
      return traced(request, ctx, (traceParent) => perform(() => serveToolCall(service, session, server, request, ctx, traceParent)))
    })
    serveTasks(server, service, perform)
    if (offersResources) {
      // What this connection subscribed to; `notifyResourceUpdated` tells it while it is open.
      const subscriptions = new Set<string>()
      const live = { server, subscriptions }
      listening.add(live)
      const closed = server.onclose
      server.onclose = () => {
        listening.delete(live)
        closed?.()
      }
      serveResources(server, { resources: options.resources, apps: options.apps, subscriptions, onError: options.onError })
    }
    if (options.prompts.size > 0) servePrompts(server, options.prompts, options.onError)
    if (options.prompts.size > 0 || options.resources.length > 0) serveCompletions(server, options.prompts, options.resources)
    return mcp
  }

  return {
    name: options.name,
    version: options.version,
    tools: options.tools,
    createServer,
    listen: (listenOptions = {}) => serveStdio(createServer, { onerror: options.onError, transport: listenOptions.transport ?? new JsonRpcStdioTransport() }),
    createHandler: (httpOptions = {}) =>
      createMcpHttpHandler(createServer, httpOptions, {
        onError: options.onError,
        clientKey: options.clientKey,
        clock: options.clock,
        scope,
        toolScopes: new Map([...options.tools.values()].map((tool) => [tool.name, tool.scopes])),
        answerFromStore: (sessionId, requestId, principal) =>
          answerFromStore({ calls: service.calls, clock: options.clock, waitMs: options.limits.idleTimeoutMs }, sessionId, requestId, principal),
        taskSnapshot: (taskId, owner) => taskSnapshot(service, taskId, owner),
        bus: changes,
        resourcesSubscribable: offersResources,
      }),
    get suspendedCalls() {
      return service.calls.size
    },
    async notifyResourceUpdated(uri: string) {
      // 2026-07-28 clients over HTTP subscribe on listen streams, which hear it from the bus.
      changes.publish({ kind: 'resource_updated', uri })
      // Every open connection that subscribed to it; one that fails to hear it is not the caller's problem.
      const subscribed = [...listening].filter((l) => l.subscriptions.has(uri))
      await Promise.all(
        subscribed.map((l) => l.server.sendResourceUpdated({ uri }).catch((error: unknown) => options.onError(error instanceof Error ? error : new Error(String(error))))),
      )
    },
    async close() {
      if (closed) return
      closed = true
      await service.calls.close('the MCP server closed')
      await destroy()
    },
  }
}

/** `_meta.ui.resourceUri` of a tool with a view (and the older flat key, which hosts still read). */
function viewMeta(apps: ResolvedAppViews | undefined, toolName: string): { _meta?: Record<string, unknown> } {
  const uri = apps?.uris.get(toolName)
  return uri ? { _meta: { ui: { resourceUri: uri }, 'ui/resourceUri': uri } } : {}
}

/**
 * A client that does not declare a capability sees fewer tools, and a person looking at its list
 * (MCP Inspector, say) would not know why: say it once per listing, as a log message.
 */
async function explainHidden(ctx: ServerContext, listing: ReadonlyArray<{ tool: AnyMcpTool; gaps: MissingCapability[] }>): Promise<void> {
  const hidden = hiddenTools(listing)
  if (hidden.length === 0) return
  const message = `Not listed for this client, which does not declare what ${hidden.length === 1 ? 'this tool needs' : 'these tools need'}: ${hidden.join('; ')}.`
  try {
    await ctx.mcpReq.log('warning', message, 'mcp-bridge')
  } catch {
    // A client that cannot take the log still gets its list.
  }
}

/** Each tool a client is not offered, with what it needs: `book_flight (needs elicitation: …)`. */
function hiddenTools(listing: ReadonlyArray<{ tool: AnyMcpTool; gaps: MissingCapability[] }>): string[] {
  return listing.flatMap(({ tool, gaps }) => (gaps.length > 0 ? [`${tool.name} (needs ${gaps.map((g) => `${g.capability}: ${g.why}`).join('; and ')})`] : []))
}

/** The client's name and version as it introduced itself (`initialize`), if it did. */
function clientNameOf(server: { getClientVersion?: () => { name?: string; version?: string } | undefined }): string | undefined {
  const info = server.getClientVersion?.()
  return info?.name ? `${info.name}${info.version ? ` ${info.version}` : ''}` : undefined
}
