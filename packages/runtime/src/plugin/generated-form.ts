/**
 * The generated form as a plugin's building block: a key whose answer needs no custom UI is
 * delegated with `onElicit({ details: generatedForm })`, and a handler may show the form itself
 * with `yield* ctx.generatedForm()` (typed with the key's answer) to add steps around it.
 *
 * The core cannot draw a form (it does not depend on React): `GeneratedFormSlot` is a placeholder
 * component the emission store carries, and the React layer (`ToolCallEmissions`) draws
 * `GeneratedForm` in its place — the same form a tool without a plugin gets.
 */
import type { Operation } from 'effection'
import type { z } from 'zod/v4'
import type { ElicitationWireSchema } from '../schema/json-schema.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { ElicitResult } from '../tool/elicits.ts'
import type { PluginClientContext, RenderedProps } from './types.ts'

/** What the generated form is shown with. */
export interface GeneratedFormSlotProps extends RenderedProps<ElicitResult<Record<string, unknown>>> {
  message: string
  schema: ElicitationWireSchema
}

/**
 * Placeholder for the generated form in the emission store; `ToolCallEmissions` draws
 * `GeneratedForm` where it appears. Rendered by anything else, it shows nothing.
 */
export function GeneratedFormSlot(_props: GeneratedFormSlotProps): null {
  return null
}

export function isGeneratedFormSlot(component: unknown): boolean {
  return component === GeneratedFormSlot
}

/** The answer content the generated form produces for a request: the key's response schema input. */
export type FormContentOf<R> = R extends { schema: { zod: infer S extends z.ZodObject } } ? z.input<S> : Record<string, unknown>

/**
 * A handler that answers with the generated form: `onElicit({ pickTime: …, details: generatedForm })`.
 * The plugin still names every key (exhaustiveness holds); this one is drawn from its schema.
 *
 * @example
 * ```tsx
 * import { createPlugin, generatedForm } from '@mcp-bridge/runtime'
 * import { bookFlight } from './tools.ts'
 * import { FlightList } from './components.tsx'
 *
 * export default createPlugin(bookFlight)
 *   .onElicit({
 *     *pickFlight(req, ctx) {
 *       return { action: 'accept', content: { flightId: yield* ctx.render(FlightList, { flights: req.context.flights }) } }
 *     },
 *     pickSeat: generatedForm, // no UI of its own: the form drawn from its schema
 *   })
 *   .build()
 * ```
 */
export function* generatedForm<R extends ElicitRequest>(_request: R, ctx: PluginClientContext<R>): Operation<ElicitResult<FormContentOf<R>>> {
  return yield* ctx.generatedForm()
}
