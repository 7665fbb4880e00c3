/**
 * `createMcpServer` options, checked up front so a mistake is one clear error at startup and
 * never a confusing failure in the middle of somebody's tool call.
 */
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
import { CALL_LIMITS, callLimitsShape, type CallLimits } from '../calls/call-limits.ts'

/**
 * The limits of an MCP server's calls (`createMcpServer({ limits })`): those of every surface, and what MCP adds.
 */
export interface McpLimits extends CallLimits {
  /**
   * Largest `tools/call` arguments, in bytes of JSON (default 256 KiB): a suspended call holds
   * its arguments, so this bounds what each one costs. Larger (or nested deeper than 64 levels)
   * is refused with -32602 before the tool runs.
   */
  maxArgumentBytes: number
  /**
   * How long a 2026-07-28 call waits for its client's next round, in ms. Such a client sends
   * nothing when it gives up between rounds (the protocol has no message for it), so its call
   * holds its place until then. Default 10 minutes (at most `idleTimeoutMs`); a 2025-11-25
   * request stays open while the person answers, so its cancellation ends the call at once.
   */
  roundHoldMs: number
  /** Questions (elicitations + samples) per call before the SDK gives up on it (default 100). */
  maxRounds: number
}

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
   * HMAC key for the requestState of suspended calls: at least 32 bytes. Default: a random key
   * the store makes once and keeps (`CallStore.sharedSecret`), so with a shared store every
   * instance, and this one after a restart, verifies the states the others minted — and with the
   * memory store, states live exactly as long as the calls they name. Give one to rotate it, or
   * to verify states across stores.
   */
  secret?: string | Uint8Array
  /**
   * What bounds the server's calls, by the names every surface uses (`CallLimits`: `maxActiveCalls`,
   * `maxCallsPerClient`, `idleTimeoutMs`, `warmCalls`, `lockLeaseMs`, `maxContextBytes`), and MCP's
   * own (`maxArgumentBytes`, `roundHoldMs`, `maxRounds`). Each defaults as `McpLimits` says.
   */
  limits?: Partial<McpLimits>
  /**
   * Who an HTTP request is from, for `limits.maxCallsPerClient`. Default: the remote address
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
  /** Undefined: the store's shared secret (`CallStore.sharedSecret`). */
  secret: string | Uint8Array | undefined
  limits: McpLimits
  /** How long a 2026-07-28 call waits for its next round, and the option that set it. */
  roundHold: AnswerWait
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
    limits: z
      .object({
        ...callLimitsShape,
        roundHoldMs: callLimitsShape.idleTimeoutMs,
        maxRounds: z.number().int().min(1).max(10_000),
        maxArgumentBytes: z
          .number()
          .int()
          .min(1024, 'at least 1024 bytes')
          .max(64 << 20, 'at most 64 MiB'),
      })
      .partial()
      .strict()
      .optional(),
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

/** Options that moved into `limits` (and what they are called there): named in the error, not just refused as unknown. */
const MOVED: Record<string, string> = {
  inputTimeoutMs: 'limits.idleTimeoutMs',
  maxSuspendedCalls: 'limits.maxActiveCalls',
  maxSuspendedCallsPerClient: 'limits.maxCallsPerClient',
  roundHoldMs: 'limits.roundHoldMs',
  maxRounds: 'limits.maxRounds',
  warmCalls: 'limits.warmCalls',
  lockLeaseMs: 'limits.lockLeaseMs',
  maxArgumentBytes: 'limits.maxArgumentBytes',
  maxContextBytes: 'limits.maxContextBytes',
}

export function resolveServerOptions(input: McpServerOptions): ResolvedServerOptions {
  const moved = Object.keys(input ?? {}).filter((key) => key in MOVED)
  if (moved.length > 0) {
    throw new OptionsError(
      'createMcpServer',
      moved.map((key) => ({ path: key, message: `moved into limits: give { limits: { ${MOVED[key]!.slice('limits.'.length)}: … } } (the name every surface uses)` })),
    )
  }
  const parsed = optionsSchema.safeParse(input)
  if (!parsed.success) {
    throw new OptionsError('createMcpServer', summarizeIssues(parsed.error.issues))
  }
  const options = parsed.data
  const secret = options.secret
  const secretBytes = secret === undefined ? 32 : typeof secret === 'string' ? Buffer.byteLength(secret) : secret.byteLength
  if (secretBytes < 32) {
    throw new OptionsError('createMcpServer', { option: 'secret', problem: `secret is ${secretBytes} bytes; use at least 32 (e.g. openssl rand -base64 32).` })
  }
  const given = options.limits ?? {}
  const idleTimeoutMs = given.idleTimeoutMs ?? CALL_LIMITS.idleTimeoutMs
  if (given.roundHoldMs !== undefined && given.roundHoldMs > idleTimeoutMs) {
    throw new OptionsError('createMcpServer', {
      option: 'limits.roundHoldMs',
      problem: `limits.roundHoldMs (${given.roundHoldMs} ms) is longer than limits.idleTimeoutMs (${idleTimeoutMs} ms); a round cannot wait longer than any answer may take. Give at most ${idleTimeoutMs}, or raise limits.idleTimeoutMs.`,
    })
  }
  const limits: McpLimits = { ...CALL_LIMITS, maxArgumentBytes: 256 << 10, roundHoldMs: Math.min(ROUND_HOLD_MS, idleTimeoutMs), maxRounds: 100, ...given }
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
    limits,
    roundHold:
      given.roundHoldMs !== undefined || idleTimeoutMs > ROUND_HOLD_MS
        ? { ms: limits.roundHoldMs, option: 'limits.roundHoldMs' }
        : { ms: idleTimeoutMs, option: 'limits.idleTimeoutMs' },
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
