/**
 * What a prompt's messages hold (MCP `PromptMessage`): a role and one piece of MCP content —
 * the same content a tool result may carry (`richContentSchema`).
 */
import { z } from 'zod'
import { richContentSchema, type RichContent } from '../sampling/content.ts'

export const promptMessageSchema = z.object({ role: z.enum(['user', 'assistant']), content: richContentSchema })

export type PromptContent = RichContent
export type PromptMessage = z.infer<typeof promptMessageSchema>
