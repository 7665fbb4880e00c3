/**
 * What an MCP Apps view shows: the tool call's current question, drawn by the plugin's own
 * components (`ToolCallEmissions`, as in the chat app), or a line saying where the call is.
 */
import { useSyncExternalStore } from 'react'
import type { AppViewSession } from '../client/app-view-session.ts'
import type { EmissionStore } from '../client/emission-store.ts'
import { ToolCallEmissions } from './emission-view.tsx'

/**
 * An MCP Apps view's page: the call's status and the plugin's UI for its questions (what `mountMcpAppView` renders).
 *
 * @example
 * ```tsx
 * import { createRoot } from 'react-dom/client'
 * import { McpAppView, type AppViewSession } from '@mcp-bridge/runtime/app-view'
 * import type { EmissionStore } from '@mcp-bridge/runtime/client'
 *
 * declare const session: AppViewSession // createAppViewSession(...)
 * declare const store: EmissionStore
 * createRoot(document.getElementById('root')!).render(<McpAppView session={session} store={store} title="Book a flight" />)
 * ```
 */
export function McpAppView({ session, store, title }: { session: AppViewSession; store: EmissionStore; title?: string }) {
  const status = useSyncExternalStore(session.subscribe, session.getStatus, session.getStatus)
  return (
    <main className="mcp-app-view" aria-busy={status.kind === 'waiting'}>
      {title && <h1 className="mcp-app-title">{title}</h1>}
      {status.kind === 'question' && <ToolCallEmissions store={store} callId={status.callId} />}
      {status.kind === 'waiting' && (
        <p className="mcp-app-status" role="status">
          <span className="mcp-spinner" aria-hidden="true" /> {status.message}
        </p>
      )}
      {status.kind === 'elsewhere' && (
        <p className="mcp-app-status" role="status">
          Your client is asking this question in its own form.
        </p>
      )}
      {status.kind === 'done' && (
        <p className={status.isError ? 'mcp-app-status mcp-app-error' : 'mcp-app-status'} role="status">
          {status.isError ? 'The tool call failed: ' : 'Done: '}
          {status.text}
        </p>
      )}
      {status.kind === 'lost' && (
        <p className="mcp-app-status mcp-app-error" role="alert">
          {status.message}
        </p>
      )}
    </main>
  )
}
