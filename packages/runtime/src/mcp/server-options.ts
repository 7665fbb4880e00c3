/**
 * `createMcpServer` options, checked up front so a mistake is one clear error at startup and
 * never a confusing failure in the middle of somebody's tool call.
 */
import { randomBytes } from 'node:crypto'
import { loggerOption, stderrLogger, withTraceIds, type McpBridgeLogger } from '../telemetry/logger.ts'
import type { AnswerWait } from '../calls/parked-calls.ts'
import { z } from 'zod/v4'
import { functionOption } from '../schema/function-option.ts'
import { summarizeIssues } from '../errors/issues.ts'
import { defaultClientKey, type ClientKey } from '../http/client-address.ts'
import { collectTools } from '../plugin/collect-tools.ts'
import { isMcpPrompt, type McpPrompt } from '../prompt/create-mcp-prompt.ts'
import { isMcpResource, type McpResource } from '../resource/create-mcp-resource.ts'
import type { CallStore } from '../calls/stores/call-store.ts'
import { callStoreOption } from '../calls/stores/store-option.ts'
import type { McpPlugin } from '../plugin/types.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { resolveAppViews, type McpAppsOptions, type ResolvedAppViews } from './app-views.ts'
import { clockOption, systemClock, type Clock } from '../time/clock.ts'
import { OptionsError } from '../errors/options-error.ts'
import { LEASE_MS, WARM_CALLS } from '../calls/call-registry.ts'

/**
 * What `createMcpServer` takes: `name`, `version` and `tools` (required), and optionally prompts, resources, MCP Apps views, limits, a call store, a logger and a clock.
 */
export interface McpServerOptions {
  name: string
  version: string
  /** For people: clients show it in place of `name` (MCP `serverInfo.title`). */
  title?: string
  /** What the server offers, in a sentence (`serverInfo.description`). */
  description?: string
  /** Where to learn more (`serverInfo.websiteUrl`): an http(s) URL. */
  websiteUrl?: string
  /** Tools, or plugins (their `mcp` part is the same tool). */
  tools: ReadonlyArray<AnyMcpTool | McpPlugin>
  /** Prompt templates clients offer their users (`createMcpPrompt`): `prompts/list`, `prompts/get`. */
  prompts?: ReadonlyArray<McpPrompt>
  /** Resources and URI templates clients read (`createMcpResource`): `resources/list`, `/read`, `/templates/list`, subscriptions. */
  resources?: ReadonlyArray<McpResource>
  /** Shown to clients at connection time. */
  instructions?: string
  /**
   * HMAC key for the requestState of suspended calls: at least 32 bytes. Defaults to a random key
   * per process, which is right for stdio and a single process; give every instance behind one
   * URL the same key, or a state minted by one is refused by another.
   */
  secret?: string | Uint8Array
  /**
   * How long a call may wait for the person (or the client's model) to answer, in ms. It is the
   * requestState's time-to-live, the expiry of a suspended call, and the SDK's per-question
   * timeout for 2025-11-25 clients — the SDK's default of 60 s is far too short for a person.
   * Default 30 minutes.
   */
  inputTimeoutMs?: number
  /**
   * How long a 2026-07-28 call waits for its client's next round, in ms. Such a client sends
   * nothing when it gives up between rounds (the protocol has no message for it), so its call
   * holds its place until then. Default 10 minutes (at most `inputTimeoutMs`); a 2025-11-25
   * request stays open while the person answers, so its cancellation ends the call at once.
   */
  roundHoldMs?: number
  /** Questions (elicitations + samples) per call before the SDK gives up on it. Default 100. */
  maxRounds?: number
  /**
   * Calls that may be held (waiting for input, or running) at once, counted in the store over
   * every instance sharing it. Past it, the longest-waiting call of the client holding the most
   * makes room, or the new call is refused with a clear error. Default 10,000.
   */
  maxSuspendedCalls?: number
  /** Calls one client (`clientKey`) may hold at once, over every instance sharing the store. Default 20. */
  maxSuspendedCallsPerClient?: number
  /**
   * Waiting calls whose generators this process keeps in memory (default 1,000): past it the
   * longest-waiting is let go of — its stored record holds all it needs — and an answer replays
   * it from its journal (no step runs again). 0: every answer replays.
   */
  warmCalls?: number
  /**
   * How long a running call's lock outlives a server that crashed, in ms (default 10 s): then an
   * instance sharing the store takes the call over and runs it on from its journal.
   */
  lockLeaseMs?: number
  /**
   * Largest `tools/call` arguments, in bytes of JSON (default 256 KiB): a suspended call holds
   * its arguments, so this bounds what each one costs. Larger (or nested deeper than 64 levels)
   * is refused with -32602 before the tool runs.
   */
  maxArgumentBytes?: number
  /**
   * Largest context data of one question (`ctx.elicit(key, { context })`), in bytes of JSON
   * (default 256 KiB, as the chat's `limits.maxContextBytes`): a call asking with more is ended
   * with that reason, since every client would be sent it and the store would hold it.
   */
  maxContextBytes?: number
  /**
   * Who an HTTP request is from, for `maxSuspendedCallsPerClient`. Default: the remote address
   * (through `handler.node`); a stdio connection is one client.
   */
  clientKey?: ClientKey
  /** Out-of-band errors (a refused requestState, a transport failure). Default: ignored. */
  onError?: (error: Error) => void
  /**
   * Where the server's own messages go (a recovered call, the details of a failure a client is
   * told only a sentence of): pino's signature, so `logger: pino()` fits. Default: the console
   * (stderr, so a stdio server's protocol channel stays clean). Traced lines carry `trace_id`.
   */
  logger?: McpBridgeLogger
  /**
   * Where suspended calls are recorded (journal, pending question, outcome): a requestState is
   * resumed from the store, so with a shared store (`createRedisStore`) any instance serves it,
   * and a finished call is refused everywhere. Default: this process's memory. Not closed by the server.
   */
  store?: CallStore
  /**
   * MCP Apps: the tools' own UI inside hosts that render it (`io.modelcontextprotocol/ui`). Each
   * view is served as a `ui://` resource and named by its tool's `_meta.ui.resourceUri`; in such a
   * host the call's questions are asked and answered in the view, by the plugin's `onElicit`
   * handlers. `views` come from the Vite plugin (`mcpBridge({ apps: true })`, `appViews`).
   */
  apps?: McpAppsOptions
  /**
   * What input timeouts, leases, session idle times and views' waits are measured with.
   * Default: wall time. Tests pass `createTestClock()` (from `@mcp-bridge/runtime/testing`)
   * here and to their store, then move time on with `clock.advance(ms)`.
   */
  clock?: Clock
}

export interface ResolvedServerOptions {
  name: string
  version: string
  /** `serverInfo` beyond name and version: title, description, websiteUrl (those given). */
  info: { title?: string; description?: string; websiteUrl?: string }
  instructions: string | undefined
  tools: ReadonlyMap<string, AnyMcpTool>
  prompts: ReadonlyMap<string, McpPrompt>
  resources: readonly McpResource[]
  secret: string | Uint8Array
  inputTimeoutMs: number
  /** How long a 2026-07-28 call waits for its next round, and the option that set it. */
  roundHold: AnswerWait
  maxRounds: number
  maxSuspendedCalls: number
  maxSuspendedCallsPerClient: number
  warmCalls: number
  lockLeaseMs: number
  maxArgumentBytes: number
  maxContextBytes: number
  clientKey: ClientKey
  onError: (error: Error) => void
  logger: McpBridgeLogger
  store: CallStore | undefined
  apps: ResolvedAppViews | undefined
  clock: Clock
}

const optionsSchema = z
  .object({
    name: z.string().min(1, 'give the server a name'),
    version: z.string().min(1, 'give the server a version, e.g. "1.0.0"'),
    title: z.string().min(1).max(200).optional(),
    description: z.string().min(1).optional(),
    websiteUrl: z.url({ protocol: /^https?$/, error: 'an http(s) URL, e.g. https://example.com' }).optional(),
    tools: z.array(z.unknown()),
    prompts: z.array(z.unknown()).optional(),
    resources: z.array(z.unknown()).optional(),
    instructions: z.string().optional(),
    secret: z.union([z.string(), z.instanceof(Uint8Array)]).optional(),
    inputTimeoutMs: z
      .number()
      .int()
      .min(1000, 'at least 1000 ms; a person needs minutes')
      .max(24 * 3600_000)
      .optional(),
    roundHoldMs: z
      .number()
      .int()
      .min(1000, 'at least 1000 ms; a person needs minutes')
      .max(24 * 3600_000)
      .optional(),
    maxRounds: z.number().int().min(1).max(10_000).optional(),
    maxSuspendedCalls: z.number().int().min(1).optional(),
    maxSuspendedCallsPerClient: z.number().int().min(1).optional(),
    warmCalls: z.number().int().min(0).max(1_000_000, 'at most 1000000 (each keeps a generator in memory)').optional(),
    maxArgumentBytes: z
      .number()
      .int()
      .min(1024, 'at least 1024 bytes')
      .max(64 << 20, 'at most 64 MiB')
      .optional(),
    maxContextBytes: z
      .number()
      .int()
      .min(1024, 'at least 1024 bytes')
      .max(64 << 20, 'at most 64 MiB')
      .optional(),
    lockLeaseMs: z.number().int().min(1000, 'at least 1000 ms (a lease renewed every third of it)').max(600_000, 'at most 10 minutes (600000 ms)').optional(),
    clientKey: functionOption().optional(),
    onError: functionOption().optional(),
    logger: loggerOption.optional(),
    store: callStoreOption.optional(),
    clock: clockOption.optional(),
    apps: z
      .object({
        views: z.record(z.string(), z.unknown()),
        claimTimeoutMs: z
          .number()
          .int()
          .min(100)
          .max(10 * 60_000)
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict()

/** Default of `roundHoldMs`. */
const ROUND_HOLD_MS = 10 * 60_000

export function resolveServerOptions(input: McpServerOptions): ResolvedServerOptions {
  const parsed = optionsSchema.safeParse(input)
  if (!parsed.success) {
    throw new OptionsError('createMcpServer', summarizeIssues(parsed.error.issues))
  }
  const options = parsed.data
  const secret = options.secret ?? randomBytes(32)
  const secretBytes = typeof secret === 'string' ? Buffer.byteLength(secret) : secret.byteLength
  if (secretBytes < 32) {
    throw new OptionsError('createMcpServer', { option: 'secret', problem: `secret is ${secretBytes} bytes; use at least 32 (e.g. openssl rand -base64 32).` })
  }
  const inputTimeoutMs = options.inputTimeoutMs ?? 30 * 60_000
  if (options.roundHoldMs !== undefined && options.roundHoldMs > inputTimeoutMs) {
    throw new OptionsError('createMcpServer', {
      option: 'roundHoldMs',
      problem: `roundHoldMs (${options.roundHoldMs} ms) is longer than inputTimeoutMs (${inputTimeoutMs} ms); a round cannot wait longer than any answer may take. Give at most ${inputTimeoutMs}, or raise inputTimeoutMs.`,
    })
  }
  const tools = collectTools(input.tools, 'createMcpServer({ tools })')
  const prompts = collectPrompts(input.prompts ?? [])
  const resources = collectResources(input.resources ?? [])
  return {
    name: options.name,
    version: options.version,
    info: {
      ...(options.title !== undefined && { title: options.title }),
      ...(options.description !== undefined && { description: options.description }),
      ...(options.websiteUrl !== undefined && { websiteUrl: options.websiteUrl }),
    },
    instructions: options.instructions,
    tools,
    prompts,
    resources,
    secret,
    inputTimeoutMs,
    roundHold:
      options.roundHoldMs !== undefined || inputTimeoutMs > ROUND_HOLD_MS
        ? { ms: options.roundHoldMs ?? ROUND_HOLD_MS, option: 'roundHoldMs' }
        : { ms: inputTimeoutMs, option: 'inputTimeoutMs' },
    maxRounds: options.maxRounds ?? 100,
    maxSuspendedCalls: options.maxSuspendedCalls ?? 10_000,
    maxSuspendedCallsPerClient: options.maxSuspendedCallsPerClient ?? 20,
    warmCalls: options.warmCalls ?? WARM_CALLS,
    lockLeaseMs: options.lockLeaseMs ?? LEASE_MS,
    maxArgumentBytes: options.maxArgumentBytes ?? 256 << 10,
    maxContextBytes: options.maxContextBytes ?? 256 << 10,
    clientKey: (input.clientKey as ClientKey | undefined) ?? defaultClientKey,
    onError: (input.onError as ((error: Error) => void) | undefined) ?? (() => {}),
    logger: withTraceIds(input.logger ?? stderrLogger),
    store: input.store,
    clock: input.clock ?? systemClock,
    apps:
      input.apps &&
      resolveAppViews(
        options.name,
        input.apps,
        new Set(tools.keys()),
        (message) => new OptionsError('createMcpServer', { option: 'apps', problem: message.replace(/^createMcpServer: /, '') }),
      ),
  }
}

/** Prompts by name: each made by createMcpPrompt, no name twice. */
function collectPrompts(given: readonly unknown[]): ReadonlyMap<string, McpPrompt> {
  const prompts = new Map<string, McpPrompt>()
  for (const [i, prompt] of given.entries()) {
    if (!isMcpPrompt(prompt))
      throw new OptionsError('createMcpServer', { option: `prompts.${i}`, problem: `prompts[${i}] is not a prompt: make one with createMcpPrompt(name)...messages(...)` })
    if (prompts.has(prompt.name))
      throw new OptionsError('createMcpServer', { option: `prompts.${i}`, problem: `prompts[${i}] is a second prompt named "${prompt.name}"; each prompt needs its own name` })
    prompts.set(prompt.name, prompt)
  }
  return prompts
}

/** Resources: each made by createMcpResource, no URI (or template) twice. */
function collectResources(given: readonly unknown[]): readonly McpResource[] {
  const seen = new Set<string>()
  return given.map((resource, i) => {
    if (!isMcpResource(resource))
      throw new OptionsError('createMcpServer', { option: `resources.${i}`, problem: `resources[${i}] is not a resource: make one with createMcpResource(uri)...read(...)` })
    if (seen.has(resource.uri))
      throw new OptionsError('createMcpServer', { option: `resources.${i}`, problem: `resources[${i}] is a second resource with the URI "${resource.uri}"` })
    seen.add(resource.uri)
    return resource
  })
}
