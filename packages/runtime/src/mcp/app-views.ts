/**
 * MCP Apps (`io.modelcontextprotocol/ui`): the HTML views a server offers for its tools. A view
 * is a self-contained HTML document (the Vite plugin builds one per plugin, with the plugin's
 * `onElicit` components); the server lists it as a `ui://` resource and points the tool at it
 * with `_meta.ui.resourceUri`, so a host that speaks the extension renders it in the
 * conversation while the call runs. The HTML is read when a host asks for it (never at startup),
 * so a server starts as fast with views as without.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server'
import { McpAppViewError } from '../errors/server-errors.ts'

/** The extension's id, under which a client declares it (`capabilities.extensions`). */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui'
/** The MIME type of an MCP App view (the same constant as ext-apps' `RESOURCE_MIME_TYPE`; a test keeps them equal). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app'

/** One tool's view: its HTML, or how to get it (read when a host first asks). */
export type McpAppViewSource = string | (() => string | Promise<string>)

/**
 * MCP Apps (`createMcpServer({ apps })`): a view per tool (the generated `appViews`) and how long a question waits for a view to take it.
 */
export interface McpAppsOptions {
  /** A view per tool name. Tools without one (no plugin, no components) are served as before. */
  views: Readonly<Record<string, McpAppViewSource>>
  /**
   * How long a question waits for the tool's view to pick it up before it is asked the ordinary
   * way (a form, for clients with `elicitation`): a host may declare the extension and still not
   * show this view. In ms; default 15 000. Once a view has taken a call, it keeps it.
   */
  claimTimeoutMs?: number
}

export interface ResolvedAppViews {
  readonly uris: ReadonlyMap<string, string>
  readonly claimTimeoutMs: number
  /** The HTML for a `ui://` URI; undefined when no tool has it. */
  html(uri: string): Promise<string | undefined>
  toolFor(uri: string): string | undefined
}

/**
 * `ui://<server>/<tool>.html`: stable for the tool, so a host may cache the view it fetched.
 *
 * @example
 * ```ts
 * import { viewUri } from '@mcp-bridge/runtime/mcp'
 *
 * viewUri('my-app', 'book_flight') // 'ui://my-app/book_flight.html'
 * ```
 */
export function viewUri(serverName: string, toolName: string): string {
  return `ui://${encodeURIComponent(serverName)}/${encodeURIComponent(toolName)}.html`
}

/** `invalid` makes the error for a mistake in the options (the caller's error class). */
export function resolveAppViews(serverName: string, options: McpAppsOptions, toolNames: ReadonlySet<string>, invalid: (message: string) => Error): ResolvedAppViews {
  const uris = new Map<string, string>()
  const byUri = new Map<string, { tool: string; source: McpAppViewSource }>()
  for (const [tool, source] of Object.entries(options.views)) {
    if (!toolNames.has(tool)) {
      throw invalid(`createMcpServer({ apps }): a view is given for "${tool}", which is not one of the tools (${[...toolNames].join(', ')}).`)
    }
    if (typeof source !== 'string' && typeof source !== 'function') {
      throw invalid(`createMcpServer({ apps }): the view of "${tool}" must be its HTML or a function returning it.`)
    }
    const uri = viewUri(serverName, tool)
    uris.set(tool, uri)
    byUri.set(uri, { tool, source })
  }
  return {
    uris,
    claimTimeoutMs: options.claimTimeoutMs ?? 15_000,
    toolFor: (uri) => byUri.get(uri)?.tool,
    async html(uri) {
      const view = byUri.get(uri)
      if (!view) return undefined
      let html: unknown
      try {
        html = typeof view.source === 'string' ? view.source : await view.source()
      } catch (error) {
        throw new McpAppViewError(`The view of tool "${view.tool}" could not be loaded: ${(error as Error).message}`)
      }
      if (typeof html !== 'string' || html.length === 0) throw new McpAppViewError(`The view of tool "${view.tool}" is empty: its loader returned no HTML.`)
      return html
    },
  }
}

/** Whether the client renders MCP Apps views of our MIME type. */
export function speaksMcpApps(caps: ClientCapabilities): boolean {
  const extensions = (caps as { extensions?: Record<string, unknown> }).extensions
  const ui = extensions?.[MCP_APPS_EXTENSION] as { mimeTypes?: unknown } | undefined
  if (!ui || typeof ui !== 'object') return false
  return !Array.isArray(ui.mimeTypes) || ui.mimeTypes.includes(MCP_APP_MIME_TYPE)
}
