/**
 * MCP content blocks (2025-11-25) and messages, as zod schemas with the types inferred from
 * them: one definition validates HTTP bodies and sampling replies and types the code.
 * Messages use content blocks throughout: a tool call is a `tool_use` block in an
 * assistant message, its answer a `tool_result` block in the next user message.
 */
import { z } from 'zod/v4'

export const textContentSchema = z.object({ type: z.literal('text'), text: z.string() })
export const imageContentSchema = z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() })
export const audioContentSchema = z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string() })
export const toolUseContentSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
})

const resultPartSchema = z.discriminatedUnion('type', [textContentSchema, imageContentSchema, audioContentSchema])

export const toolResultContentSchema = z.object({
  type: z.literal('tool_result'),
  toolUseId: z.string().min(1),
  content: z.array(resultPartSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
})

const resourceContentsSchema = z.union([
  z.object({ uri: z.string().min(1), mimeType: z.string().optional(), text: z.string() }),
  z.object({ uri: z.string().min(1), mimeType: z.string().optional(), blob: z.string() }),
])

/**
 * What a tool result or a prompt message may hold (MCP content): text, an image or audio
 * (base64), a resource embedded with its contents, or a link to one.
 */
export const richContentSchema = z.discriminatedUnion('type', [
  textContentSchema,
  imageContentSchema,
  audioContentSchema,
  z.object({ type: z.literal('resource'), resource: resourceContentsSchema }),
  z.object({ type: z.literal('resource_link'), uri: z.string().min(1), name: z.string().min(1), mimeType: z.string().optional(), description: z.string().optional() }),
])
/**
 * A block of a tool's result or a prompt message: text, image, audio, an embedded resource or a resource link.
 */
export type RichContent = z.infer<typeof richContentSchema>

export const contentBlockSchema = z.discriminatedUnion('type', [textContentSchema, imageContentSchema, audioContentSchema, toolUseContentSchema, toolResultContentSchema])

export const mcpMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.array(contentBlockSchema),
})

/**
 * An MCP text block: `{ type: 'text', text }`.
 */
export type TextContent = z.infer<typeof textContentSchema>
/**
 * An MCP image block: `{ type: 'image', data (base64), mimeType }`.
 */
export type ImageContent = z.infer<typeof imageContentSchema>
/**
 * An MCP audio block: `{ type: 'audio', data (base64), mimeType }`.
 */
export type AudioContent = z.infer<typeof audioContentSchema>
/**
 * A model's request to use a tool inside a sampling message (MCP 2025-11-25).
 */
export type ToolUseContent = z.infer<typeof toolUseContentSchema>
/**
 * A tool's result inside a sampling message (MCP 2025-11-25 tool use in sampling).
 */
export type ToolResultContent = z.infer<typeof toolResultContentSchema>
/**
 * One content block of a sampling message: text, image, audio, a tool use or a tool result.
 */
export type McpContentBlock = z.infer<typeof contentBlockSchema>
/**
 * One message of a sampling request: `{ role, content }` as MCP `sampling/createMessage` has it.
 */
export type McpMessage = z.infer<typeof mcpMessageSchema>

/**
 * The text of a sampling message: its text blocks joined, other blocks left out.
 *
 * @example
 * ```ts
 * import { messageText } from '@mcp-bridge/runtime'
 *
 * messageText({ role: 'assistant', content: [{ type: 'text', text: 'Lisbon' }, { type: 'text', text: ' in May' }] }) // 'Lisbon in May'
 * ```
 */
export function messageText(message: McpMessage): string {
  return message.content
    .filter((b): b is TextContent => b.type === 'text')
    .map((b) => b.text)
    .join('')
}
