/**
 * What a prompt's messages may hold (MCP `PromptMessage`): text, an image or audio (base64), a
 * resource embedded with its contents, or a link to one. One zod schema checks what a prompt
 * returns and types it.
 */
import { z } from 'zod'
import { audioContentSchema, imageContentSchema, textContentSchema } from '../sampling/content.ts'

const resourceContentsSchema = z.union([
  z.object({ uri: z.string().min(1), mimeType: z.string().optional(), text: z.string() }),
  z.object({ uri: z.string().min(1), mimeType: z.string().optional(), blob: z.string() }),
])

export const promptContentSchema = z.discriminatedUnion('type', [
  textContentSchema,
  imageContentSchema,
  audioContentSchema,
  z.object({ type: z.literal('resource'), resource: resourceContentsSchema }),
  z.object({ type: z.literal('resource_link'), uri: z.string().min(1), name: z.string().min(1), mimeType: z.string().optional(), description: z.string().optional() }),
])

export const promptMessageSchema = z.object({ role: z.enum(['user', 'assistant']), content: promptContentSchema })

export type PromptContent = z.infer<typeof promptContentSchema>
export type PromptMessage = z.infer<typeof promptMessageSchema>
