/**
 * What a tool says about itself beyond its name: for people (title, icons), for clients deciding
 * how to present or confirm a call (annotations — hints, not guarantees), and the shape of its
 * result (`.returns()` → MCP `outputSchema`; the result is validated against it and sent as
 * `structuredContent`). Validated when the tool is defined, like everything else in the builder.
 */
import { z } from 'zod/v4'
import { formatIssues, summarizeIssues } from '../errors/issues.ts'

/** MCP tool annotations (2025-11-25): hints for clients; never a security boundary. */
export interface ToolAnnotations {
  /** It does not change its environment. */
  readOnlyHint?: boolean
  /** A change it makes may destroy something (meaningful when not read-only). */
  destructiveHint?: boolean
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint?: boolean
  /** It reaches entities outside the server (the web, other people's systems). */
  openWorldHint?: boolean
}

/** An icon for a tool, as MCP lists it: an https or data URL, optionally typed, sized and themed. */
export interface ToolIcon {
  src: string
  mimeType?: string
  /** e.g. `['48x48']`, or `['any']` for scalable formats. */
  sizes?: string[]
  theme?: 'light' | 'dark'
}

export const annotationsSchema = z.strictObject({
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
})

const iconSchema = z.strictObject({
  src: z
    .string()
    .refine(
      (s) => /^https:\/\/[^\s]+$/.test(s) || /^data:image\/[\w.+-]+[;,]/.test(s),
      'an https:// URL or a data:image/… URL (clients fetch it; plain http and other schemes are refused)',
    ),
  mimeType: z
    .string()
    .regex(/^image\/[\w.+-]+$/, 'an image MIME type, e.g. image/png')
    .optional(),
  sizes: z.array(z.string().regex(/^(\d+x\d+|any)$/, 'WxH (e.g. 48x48) or any')).optional(),
  theme: z.enum(['light', 'dark']).optional(),
})

export const iconsSchema = z.array(iconSchema).min(1, 'at least one icon').max(16, 'at most 16 icons')

/** A readable sentence for a metadata value that does not fit (used by the builder's errors). */
export function metadataProblem(schema: z.ZodType, value: unknown, what: string): string | undefined {
  const parsed = schema.safeParse(value)
  return parsed.success ? undefined : `${what}: ${formatIssues(summarizeIssues(parsed.error.issues), 'inline', what.replace(/^\./, '').replace(/\(\)$/, ''))}`
}
