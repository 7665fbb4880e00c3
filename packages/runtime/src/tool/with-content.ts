/**
 * `withContent(content, structured?)`: a tool result that is more than text — images, audio,
 * resources embedded or linked — as MCP content blocks, with an optional structured value (which
 * `.returns(schema)` checks, and MCP clients get as `structuredContent`). The content is checked
 * when the tool returns it; the value stays plain JSON, so a stored call keeps it as it was.
 *
 *   return withContent([{ type: 'text', text: 'Your chart:' }, { type: 'image', data, mimeType: 'image/png' }], { points: 12 })
 */
import { summarizeIssues, formatIssues } from '../errors/issues.ts'
import { richContentSchema, type RichContent } from '../sampling/content.ts'
import { z } from 'zod/v4'
import { ToolContentError } from '../errors/definition-errors.ts'

/**
 * A tool result of MCP content blocks with an optional structured value, as `withContent(...)` makes it.
 */
export interface ToolContent<S = unknown> {
  readonly kind: 'mcp-tool-content'
  readonly content: readonly RichContent[]
  readonly structured?: S
}

/**
 * A tool result that is more than text: MCP content blocks (checked now, `ToolContentError` naming a bad one)
 * and an optional structured value, checked by `.returns(schema)` and sent as `structuredContent`.
 *
 * @example
 * ```ts
 * import { createMcpTool, withContent } from '@mcp-bridge/runtime'
 *
 * export const chart = createMcpTool('sales_chart')
 *   .elicits({})
 *   .execute(function* () {
 *     const png = 'iVBORw0KGgo=' // base64 of the image
 *     return withContent([{ type: 'text', text: 'Sales this week:' }, { type: 'image', data: png, mimeType: 'image/png' }], { points: 7 })
 *   })
 * ```
 */
export function withContent<S = undefined>(content: readonly RichContent[], structured?: S): ToolContent<S> {
  const checked = z.array(richContentSchema).min(1, 'give at least one block').safeParse(content)
  if (!checked.success) {
    throw new ToolContentError(
      `withContent(): ${formatIssues(summarizeIssues(checked.error.issues))}. Each block is { type: 'text', text } | { type: 'image' | 'audio', data (base64), mimeType } | { type: 'resource', resource: { uri, text | blob } } | { type: 'resource_link', uri, name }.`,
    )
  }
  return { kind: 'mcp-tool-content', content: checked.data, ...(structured !== undefined && { structured }) }
}

/**
 * Whether a tool's result was made with `withContent(...)`.
 *
 * @example
 * ```ts
 * import { isToolContent, withContent } from '@mcp-bridge/runtime'
 *
 * isToolContent(withContent([{ type: 'text', text: 'hi' }])) // true
 * isToolContent('hi') // false
 * ```
 */
export function isToolContent(value: unknown): value is ToolContent {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'mcp-tool-content' && Array.isArray((value as { content?: unknown }).content)
}

/** What a block says as text, for readers of text only (a chat model, a one-line summary). */
export function contentText(block: RichContent): string {
  switch (block.type) {
    case 'text':
      return block.text
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.mimeType ?? 'binary'} resource ${block.resource.uri}]`
    case 'resource_link':
      return `[${block.name}: ${block.uri}]`
    default:
      return `[${block.type} ${block.mimeType}]`
  }
}
