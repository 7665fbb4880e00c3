/**
 * `createMcpPrompt(name)`: a prompt template an MCP client offers its user (a slash command, a
 * menu entry): its name, a description, typed arguments, and the messages it expands to.
 *
 *   createMcpPrompt('review_code')
 *     .description('Ask for a review of some code')
 *     .arguments(z.object({ code: z.string().describe('The code to review') }))
 *     .messages(({ code }) => `Please review this code:\n\n${code}`)
 *
 * MCP passes prompt arguments as strings, so each argument is a string field (`z.string()`, a
 * `z.enum` of strings, optional or with a default); anything else is refused when the prompt is
 * defined. `.messages()` returns a string (one user message), or messages with any MCP content;
 * it may be async. An immutable builder, like `createMcpTool`.
 */
import { z } from 'zod/v4'
import { isZodObject, zodTypeName } from '../schema/zod-to-json-schema.ts'
import { toolNameProblem } from '../tool/tool-name.ts'
import { promptMessageSchema, type PromptMessage } from './prompt-content.ts'
import { PromptDefinitionError } from '../errors/definition-errors.ts'

/** One argument as MCP lists it. */
export interface PromptArgument {
  name: string
  description?: string
  required: boolean
}

/**
 * Suggestions for an argument as the user types it (`completion/complete`): from what is typed so
 * far, and the other arguments already given.
 */
export type Completer = (value: string, context: { arguments: Record<string, string> }) => readonly string[] | Promise<readonly string[]>

/** What `.messages()` may return. */
export type PromptBody<A> = (args: A) => string | readonly PromptMessage[] | Promise<string | readonly PromptMessage[]>

/**
 * A prompt made with `createMcpPrompt(...)`: what `createMcpServer({ prompts })` lists and renders.
 */
export interface McpPrompt<N extends string = string, A extends z.ZodObject = z.ZodObject> {
  readonly kind: 'mcp-prompt'
  readonly name: N
  readonly title: string | undefined
  readonly description: string | undefined
  readonly argumentsSchema: A
  /** The arguments as `prompts/list` shows them. */
  readonly arguments: readonly PromptArgument[]
  /** The messages for these (already validated) arguments, checked against MCP's content shapes. */
  render(args: z.output<A>): Promise<PromptMessage[]>
  /** Suggestions for argument `name` from what is typed (its completer, or its enum's options). */
  complete(name: string, value: string, context: { arguments: Record<string, string> }): Promise<string[]>
}

/**
 * What `createMcpPrompt(name)` returns: add a title, a description, string arguments and completers, then end with `.messages(body)`.
 */
export interface McpPromptBuilder<N extends string, A extends z.ZodObject> {
  /** A name for people; clients show it in their prompt menus. */
  title(text: string): McpPromptBuilder<N, A>
  description(text: string): McpPromptBuilder<N, A>
  /** The arguments: a zod object of string fields (`.describe()` says what each is for). */
  arguments<NA extends z.ZodObject>(schema: NA): McpPromptBuilder<N, NA>
  /**
   * Suggestions for arguments as the user types (`completion/complete`), by argument name. An
   * enum argument suggests its options without one.
   */
  complete(completers: Partial<Record<keyof z.output<A> & string, Completer>>): McpPromptBuilder<N, A>
  /** What the prompt expands to: a string (one user message) or messages. Ends the definition. */
  messages(body: PromptBody<z.output<A>>): McpPrompt<N, A>
}

interface State {
  name: string
  title?: string
  description?: string
  schema: z.ZodObject
  completers: Record<string, Completer>
}

/**
 * Defines an MCP prompt (`prompts/list`, `prompts/get`): a name, string arguments checked when it is
 * defined, and a body that returns a string or MCP messages of any content.
 *
 * @example
 * ```ts
 * import { createMcpPrompt } from '@mcp-bridge/runtime'
 * import { z } from 'zod'
 *
 * export const planTrip = createMcpPrompt('plan_trip')
 *   .title('Plan a trip')
 *   .arguments(z.object({ city: z.string().describe('Where to') }))
 *   .messages(({ city }) => `Plan three days in ${city}.`)
 * ```
 */
export function createMcpPrompt<const N extends string>(name: N): McpPromptBuilder<N, z.ZodObject<{}>> {
  const problem = toolNameProblem(name)
  if (problem) throw new PromptDefinitionError(String(name), `invalid name: ${problem.replace('a tool name', 'a prompt name')}`)
  return builder({ name, schema: z.object({}), completers: {} }) as McpPromptBuilder<N, z.ZodObject<{}>>
}

function builder(state: State): McpPromptBuilder<string, z.ZodObject> {
  const fail = (problem: string): never => {
    throw new PromptDefinitionError(state.name, problem)
  }
  const text = (step: string, value: unknown): string => (typeof value === 'string' && value.trim() ? value : fail(`.${step}() takes a non-empty string`))
  return {
    title: (value) => builder({ ...state, title: text('title', value) }),
    description: (value) => builder({ ...state, description: text('description', value) }),
    arguments: <NA extends z.ZodObject>(schema: NA) => builder({ ...state, schema: checkArguments(state.name, schema) }) as unknown as McpPromptBuilder<string, NA>,
    complete(completers) {
      const known = Object.keys(state.schema.shape)
      for (const [key, completer] of Object.entries(completers as Record<string, unknown>)) {
        if (!known.includes(key)) fail(`.complete() names "${key}", which is not an argument (${known.join(', ') || 'none'}); give .arguments() first`)
        if (typeof completer !== 'function') fail(`.complete({ ${key} }) takes a function (value, context) => suggestions`)
      }
      return builder({ ...state, completers: { ...state.completers, ...(completers as Record<string, Completer>) } })
    },
    messages(body) {
      if (typeof body !== 'function') fail('.messages() takes a function from the arguments to a string or messages')
      return finish(state, body as PromptBody<unknown>)
    },
  }
}

/** Each field a string (MCP sends prompt arguments as strings): z.string, a z.enum of strings, optional or defaulted. */
function checkArguments(name: string, schema: unknown): z.ZodObject {
  // By zod's own type tag, never `instanceof`: the app's zod classes are not always ours (zod 3.25's `zod/v4`, two copies).
  if (!isZodObject(schema)) throw new PromptDefinitionError(name, '.arguments() takes a z.object({...}) of string fields')
  const wrong = Object.entries(schema.shape as Record<string, z.ZodType>).filter(([, field]) => !isStringField(field))
  if (wrong.length > 0) {
    throw new PromptDefinitionError(
      name,
      `MCP passes prompt arguments as strings; ${wrong.map(([key]) => `"${key}"`).join(', ')} ${wrong.length === 1 ? 'is' : 'are'} not a string field. Use z.string() or a z.enum of strings (parse numbers inside .messages()).`,
    )
  }
  return schema
}

function isStringField(field: z.ZodType): boolean {
  const inner = unwrapOptional(field)
  if (zodTypeName(inner) === 'string') return true
  return zodTypeName(inner) === 'enum' && enumValues(inner).every((v) => typeof v === 'string')
}

/** The field inside `.optional()` / `.default()`. */
function unwrapOptional(field: z.ZodType): z.ZodType {
  const type = zodTypeName(field)
  return type === 'optional' || type === 'default' ? (field as unknown as { _zod: { def: { innerType: z.ZodType } } })._zod.def.innerType : field
}

/** An enum's values, from its definition (`def.entries`). */
function enumValues(field: z.ZodType): unknown[] {
  return Object.values((field as unknown as { _zod: { def: { entries: Record<string, unknown> } } })._zod.def.entries)
}

function finish(state: State, body: PromptBody<unknown>): McpPrompt {
  const shape = state.schema.shape as Record<string, z.ZodType>
  const args: PromptArgument[] = Object.entries(shape).map(([key, field]) => ({
    name: key,
    ...(field.description !== undefined && { description: field.description }),
    required: !field.safeParse(undefined).success,
  }))
  return Object.freeze({
    kind: 'mcp-prompt' as const,
    name: state.name,
    title: state.title,
    description: state.description,
    argumentsSchema: state.schema,
    arguments: Object.freeze(args),
    async render(values: unknown): Promise<PromptMessage[]> {
      const out = await body(values)
      const messages = typeof out === 'string' ? [{ role: 'user' as const, content: { type: 'text' as const, text: out } }] : out
      const checked = z.array(promptMessageSchema).safeParse(messages)
      if (!checked.success) {
        const where = checked.error.issues[0]
        throw new PromptDefinitionError(
          state.name,
          `.messages() returned what is not an MCP prompt message (at ${where?.path.join('.') || 'the top'}: ${where?.message}); return a string, or [{ role: 'user' | 'assistant', content: { type: 'text', text } | … }]`,
        )
      }
      return checked.data
    },
    async complete(argument: string, value: string, context: { arguments: Record<string, string> }): Promise<string[]> {
      const completer = state.completers[argument]
      if (completer) return [...(await completer(value, context))]
      return suggest(enumOptions(shape[argument]), value)
    },
  })
}

/** The options of an enum argument (optional or defaulted), or none. */
function enumOptions(field: z.ZodType | undefined): string[] {
  const inner = field && unwrapOptional(field)
  return inner && zodTypeName(inner) === 'enum' ? (enumValues(inner) as string[]) : []
}

/** The options that begin with what was typed (ignoring case), in their order. */
export function suggest(options: readonly string[], typed: string): string[] {
  const prefix = typed.toLowerCase()
  return options.filter((option) => option.toLowerCase().startsWith(prefix))
}

/**
 * Whether a value is a prompt made with `createMcpPrompt(...)`.
 *
 * @example
 * ```ts
 * import { isMcpPrompt } from '@mcp-bridge/runtime'
 * import * as module from './prompts.ts'
 *
 * const prompts = Object.values(module).filter(isMcpPrompt)
 * ```
 */
export function isMcpPrompt(value: unknown): value is McpPrompt {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'mcp-prompt'
}
