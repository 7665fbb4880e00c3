/**
 * `createMcpResource(uri)`: something a server lets clients read by URI — a file, a record, a
 * report. A URI with `{variables}` (an RFC 6570 level-1 template, e.g. `orders://{id}/summary`)
 * is a template: it matches many URIs, and `.read()` gets the values.
 *
 *   createMcpResource('config://app')
 *     .name('App configuration')
 *     .mimeType('application/json')
 *     .read(() => JSON.stringify(config))
 *
 * `.read()` returns text (a string, or `{ text }`), binary (`{ blob }` in base64, or a
 * `Uint8Array`), and may be async. An immutable builder, like `createMcpTool`.
 */
import type { Completer } from '../prompt/create-mcp-prompt.ts'
import { ResourceDefinitionError } from '../errors/definition-errors.ts'

/** What `.read()` may return. */
export type ResourceBody = string | { text: string } | { blob: string } | Uint8Array

/** One item of `resources/read`'s `contents`. */
export type ResourceContents = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string }

/**
 * A resource made with `createMcpResource(...)`: what `createMcpServer({ resources })` lists and reads.
 */
export interface McpResource {
  readonly kind: 'mcp-resource'
  /** The URI, or the URI template. */
  readonly uri: string
  readonly isTemplate: boolean
  readonly variables: readonly string[]
  readonly name: string
  readonly title: string | undefined
  readonly description: string | undefined
  readonly mimeType: string | undefined
  /** The template's values for `uri`, or undefined when it does not match (a static one: its own URI only). */
  match(uri: string): Record<string, string> | undefined
  read(uri: string, variables: Record<string, string>): Promise<ResourceContents[]>
  /** Suggestions for template variable `name` from what is typed (its completer; none without one). */
  complete(name: string, value: string, context: { arguments: Record<string, string> }): Promise<string[]>
}

/**
 * What `createMcpResource(uri)` returns: name, title, description, MIME type and completers, then `.read(body)` ends the definition.
 */
export interface McpResourceBuilder {
  /** What clients list it as (default: the URI's last segment). */
  name(text: string): McpResourceBuilder
  title(text: string): McpResourceBuilder
  description(text: string): McpResourceBuilder
  mimeType(type: string): McpResourceBuilder
  /** Suggestions for a template's variables as the user types (`completion/complete`), by variable name. */
  complete(completers: Record<string, Completer>): McpResourceBuilder
  /** Its contents (for a template, from the URI's values). Ends the definition. */
  read(body: (variables: Record<string, string>, uri: string) => ResourceBody | Promise<ResourceBody>): McpResource
}

interface State {
  uri: string
  completers?: Record<string, Completer>
  name?: string
  title?: string
  description?: string
  mimeType?: string
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i
const VARIABLE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/**
 * Defines an MCP resource at a static URI or a `{variable}` template (`resources/list`,
 * `resources/templates/list`, `resources/read`); the body returns text, bytes or contents.
 *
 * @example
 * ```ts
 * import { createMcpResource } from '@mcp-bridge/runtime'
 *
 * export const orderSummary = createMcpResource('orders://{id}/summary')
 *   .title('Order summary')
 *   .mimeType('text/markdown')
 *   .read(({ id }) => `# Order ${id}\n\nShipped.`)
 * ```
 */
export function createMcpResource(uri: string): McpResourceBuilder {
  if (typeof uri !== 'string' || !SCHEME.test(uri))
    throw new ResourceDefinitionError(String(uri), 'give a URI with a scheme, e.g. "file:///docs/readme.md" or "orders://{id}/summary"')
  const leftover = uri.replace(VARIABLE, '')
  if (/[{}]/.test(leftover)) throw new ResourceDefinitionError(uri, 'template variables are {name} (letters, digits, _), one per pair of braces')
  return builder({ uri })
}

function builder(state: State): McpResourceBuilder {
  const text = (step: string, value: unknown): string => {
    if (typeof value === 'string' && value.trim()) return value
    throw new ResourceDefinitionError(state.uri, `.${step}() takes a non-empty string`)
  }
  return {
    name: (value) => builder({ ...state, name: text('name', value) }),
    title: (value) => builder({ ...state, title: text('title', value) }),
    description: (value) => builder({ ...state, description: text('description', value) }),
    mimeType: (value) => builder({ ...state, mimeType: text('mimeType', value) }),
    complete(completers) {
      const variables = [...state.uri.matchAll(VARIABLE)].map((m) => m[1]!)
      for (const [key, completer] of Object.entries(completers)) {
        if (!variables.includes(key))
          throw new ResourceDefinitionError(state.uri, `.complete() names "${key}", which is not a variable of the template (${variables.join(', ') || 'none'})`)
        if (typeof completer !== 'function') throw new ResourceDefinitionError(state.uri, `.complete({ ${key} }) takes a function (value, context) => suggestions`)
      }
      return builder({ ...state, completers: { ...state.completers, ...completers } })
    },
    read(body) {
      if (typeof body !== 'function') throw new ResourceDefinitionError(state.uri, '.read() takes a function returning the contents')
      return finish(state, body)
    },
  }
}

function finish(state: State, body: (variables: Record<string, string>, uri: string) => ResourceBody | Promise<ResourceBody>): McpResource {
  const variables = [...state.uri.matchAll(VARIABLE)].map((m) => m[1]!)
  // Each variable matches one segment (no "/"), as RFC 6570's simple expansion would have written it.
  const pattern = new RegExp(
    `^${state.uri
      .split(VARIABLE)
      .map((part, i) => (i % 2 === 1 ? '([^/?#]+)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  )
  const fallbackName =
    state.uri
      .replace(/[?#].*$/, '')
      .split('/')
      .filter(Boolean)
      .pop() ?? state.uri
  return Object.freeze({
    kind: 'mcp-resource' as const,
    uri: state.uri,
    isTemplate: variables.length > 0,
    variables: Object.freeze(variables),
    name: state.name ?? fallbackName,
    title: state.title,
    description: state.description,
    mimeType: state.mimeType,
    match(uri: string) {
      if (variables.length === 0) return uri === state.uri ? {} : undefined
      const found = pattern.exec(uri)
      return found ? Object.fromEntries(variables.map((name, i) => [name, decodeURIComponent(found[i + 1]!)])) : undefined
    },
    async read(uri: string, values: Record<string, string>): Promise<ResourceContents[]> {
      const out = await body(values, uri)
      const base = { uri, ...(state.mimeType !== undefined && { mimeType: state.mimeType }) }
      if (typeof out === 'string') return [{ ...base, text: out }]
      if (out instanceof Uint8Array) return [{ ...base, blob: base64(out) }]
      if (out && typeof out === 'object' && typeof (out as { text?: unknown }).text === 'string') return [{ ...base, text: (out as { text: string }).text }]
      if (out && typeof out === 'object' && typeof (out as { blob?: unknown }).blob === 'string') return [{ ...base, blob: (out as { blob: string }).blob }]
      throw new ResourceDefinitionError(state.uri, '.read() returned neither text (a string, { text }) nor binary ({ blob } in base64, a Uint8Array)')
    },
    async complete(name: string, value: string, context: { arguments: Record<string, string> }): Promise<string[]> {
      const completer = state.completers?.[name]
      return completer ? [...(await completer(value, context))] : []
    },
  })
}

/**
 * Whether a value is a resource made with `createMcpResource(...)`.
 *
 * @example
 * ```ts
 * import { isMcpResource } from '@mcp-bridge/runtime'
 * import * as module from './resources.ts'
 *
 * const resources = Object.values(module).filter(isMcpResource)
 * ```
 */
export function isMcpResource(value: unknown): value is McpResource {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'mcp-resource'
}

/** Base64 of bytes, in the browser as in Node (no Buffer: this module is isomorphic). */
function base64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}
