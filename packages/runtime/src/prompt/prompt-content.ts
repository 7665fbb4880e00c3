/**
 * What a prompt's messages hold (MCP `PromptMessage`): a role and one piece of MCP content —
 * the same content a tool result may carry (`richContentSchema`).
 */
import { z } from 'zod/v4'
import { richContentSchema, type RichContent } from '../sampling/content.ts'

export const promptMessageSchema = z.object({ role: z.enum(['user', 'assistant']), content: richContentSchema })

/**
 * What one prompt message may hold: any MCP content block (text, image, audio, an embedded or linked resource).
 */
export type PromptContent = RichContent
/**
 * One message of a rendered prompt: `{ role: 'user' | 'assistant', content }`.
 */
export type PromptMessage = z.infer<typeof promptMessageSchema>
