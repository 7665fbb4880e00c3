/**
 * Thrown by the stubs the Vite plugin's split leaves in place of code that does not belong to a
 * bundle (`execute` / `handoff` in the browser, `onElicit` handlers on the server): reaching one
 * means code in that bundle called the step directly instead of through a host.
 */
import { McpBridgeError } from './mcp-bridge-error.ts'

export class RemovedFromBundleError extends McpBridgeError {
  readonly code = 'REMOVED_FROM_BUNDLE'
  constructor(
    readonly step: string,
    where: 'in the browser' | 'on the server',
  ) {
    super(
      `mcp-bridge: .${step}() was removed from this bundle (it does not run ${where}). If you see this, code ${where} ` +
        'called it directly; run the tool through the chat handler or MCP server instead.',
    )
  }
}
