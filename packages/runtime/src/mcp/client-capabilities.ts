/**
 * What the connected client declared. A 2025-11-25 client declares its capabilities once, at
 * `initialize`; a 2026-07-28 client sends them with every request in the `_meta` envelope.
 */
import { MODEL_CONTEXT_EXTENSION } from '../model-context/model-context.ts'
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY, type ClientCapabilities, type Server, type ServerContext } from '@modelcontextprotocol/server'
import type { ClientCapabilityName } from '../errors/call-errors.ts'
import type { SamplingRequest } from '../sampling/provider.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'

export function clientCapabilitiesOf(server: Server, ctx: ServerContext): ClientCapabilities {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined
  const perRequest = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined
  return perRequest ?? server.getClientCapabilities() ?? {}
}

/** The protocol revision a request is served under: per request (2026-07-28), else as negotiated at `initialize`. */
export function protocolVersionOf(server: Server, ctx: ServerContext): string | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined
  const perRequest = envelope?.[PROTOCOL_VERSION_META_KEY]
  return typeof perRequest === 'string' ? perRequest : server.getNegotiatedProtocolVersion()
}

/**
 * From 2026-07-28 the client carries a call between its rounds (its requestState); before, the
 * session that serves the call asks its questions itself (the SDK's shim), so only that session can.
 */
export function carriesItsRounds(version: string | undefined): boolean {
  return version !== undefined && version >= '2026-07-28'
}

/** Before 2025-11-25 (e.g. 2025-06-18) a sampling message holds exactly one content block, not an array. */
export function speaksBefore20251125(version: string | undefined): boolean {
  return version !== undefined && version < '2025-11-25'
}

export interface MissingCapability {
  capability: ClientCapabilityName
  why: string
}

/**
 * Form-mode elicitation (all a tool asks for): declared as `elicitation.form`, or as a bare
 * `elicitation: {}` (what clients before URL mode sent). A client declaring only `url` has no forms.
 */
/**
 * Whether the client declared that it reads a question's context from the message's JSON section
 * (`MODEL_CONTEXT_EXTENSION` under `extensions`, or `experimental` before 2025-11-25). Only then is
 * the section appended: for a person reading a plain form it would be raw JSON.
 */
export function readsModelContext(caps: ClientCapabilities): boolean {
  const { extensions, experimental } = caps as { extensions?: Record<string, unknown>; experimental?: Record<string, unknown> }
  return extensions?.[MODEL_CONTEXT_EXTENSION] !== undefined || experimental?.[MODEL_CONTEXT_EXTENSION] !== undefined
}

export function supportsFormElicitation(caps: ClientCapabilities): boolean {
  const elicitation = caps.elicitation as { form?: unknown; url?: unknown } | undefined
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined)
}

/**
 * Every capability `tool.requires(...)` names that the client lacks (at the protocol `version` it
 * speaks), each with why; empty when it can serve the tool. `viewed`: the client renders this
 * tool's MCP Apps view, which asks its questions.
 */
export function missingRequirements(tool: AnyMcpTool, caps: ClientCapabilities, version?: string, viewed = false): MissingCapability[] {
  const missing: MissingCapability[] = []
  if (tool.requirements.elicitation && !viewed && !supportsFormElicitation(caps)) {
    missing.push({ capability: 'elicitation', why: 'it asks the user through ctx.elicit, in form mode' })
  } else if (!viewed && speaksBefore20251125(version) && usesNewerFormFields(tool)) {
    missing.push({ capability: 'elicitation', why: `it asks for several choices at once or for titled choices, which MCP ${version} forms cannot show (2025-11-25 can)` })
  }
  if (tool.requirements.sampling && !caps.sampling) missing.push({ capability: 'sampling', why: 'it asks the model through ctx.sample' })
  return missing
}

/** `"elicitation" (why)`, or `"elicitation" (why) and "sampling" (why)`: what a refusal or a log line says a tool needs. */
export function describeMissing(missing: readonly MissingCapability[]): string {
  return missing.map((m) => `"${m.capability}" (${m.why})`).join(' and ')
}

/** The `requiredCapabilities` of MissingRequiredClientCapabilityError for everything missing. */
export function requiredCapabilitiesOf(missing: readonly MissingCapability[]): ClientCapabilities {
  return Object.assign({}, ...missing.map((m) => asRequiredCapabilities(m.capability))) as ClientCapabilities
}

/** A sampling request needs `sampling`, and `sampling.tools` when it carries tools (`__schema__`). */
export function missingForSampling(request: SamplingRequest, caps: ClientCapabilities): MissingCapability | undefined {
  if (!caps.sampling) return { capability: 'sampling', why: 'it called ctx.sample' }
  if (request.tools?.length && !caps.sampling.tools) {
    return { capability: 'sampling.tools', why: 'ctx.sample with a schema sends the __schema__ tool; call ctx.sample without a schema for such clients' }
  }
  return undefined
}

/** The `requiredCapabilities` shape of MissingRequiredClientCapabilityError. */
function asRequiredCapabilities(capability: ClientCapabilityName): ClientCapabilities {
  return capability === 'sampling.tools' ? { sampling: { tools: {} } } : { [capability]: {} }
}

/** Multi-select (`type: array`) and titled single-select (`oneOf`) fields arrived with MCP 2025-11-25. */
function usesNewerFormFields(tool: AnyMcpTool): boolean {
  return Object.values(tool.compiled).some((key) => Object.values(key.wire.properties).some((field) => field.type === 'array' || Array.isArray(field.oneOf)))
}
