/**
 * `createMcpTool(name)`: an immutable builder. Each step returns a new builder, so a partial
 * chain can be shared and extended without one use affecting another.
 *
 * The types carry a small state machine: `.handoff()` and `.plainForm()` exist only after
 * `.elicits({...})`; `.execute()` also before it, for a tool that never asks (its `ctx.elicit`
 * then takes no key).
 * Every step also validates at run time, for JavaScript callers and values built dynamically.
 */
import type { Operation } from 'effection'
import { z } from 'zod/v4'
import type { JsonSchema } from '../schema/json-schema.ts'
import { isPlainObject } from '../schema/json-schema.ts'
import { UNREPRESENTABLE_FIXES } from '../schema/elicitation-rules.ts'
import { isZodObject, toJsonSchema } from '../schema/zod-to-json-schema.ts'
import { compileElicits, type CompileResult } from './compile-elicits.ts'
import type { McpToolContext } from './context.ts'
import type { ElicitsMap } from './elicits.ts'
import type { ToolContent } from './with-content.ts'
import { plainFormProblem, plainFormWarnings, type PlainForms, type PlainFormSpec } from './plain-form.ts'
import { ToolDefinitionError } from '../errors/definition-errors.ts'
import { ElicitationSchemaError } from '../errors/elicitation-schema-error.ts'
import type { ExecuteBody, HandoffPhases, McpTool, TaskSupport, ToolRequirements } from './mcp-tool.ts'
import { assertToolName } from './tool-name.ts'
import { annotationsSchema, iconsSchema, metadataProblem, type ToolAnnotations, type ToolIcon } from './tool-metadata.ts'

/**
 * The parameters of a tool before `.parameters(...)`: an empty object.
 */
export type EmptyParameters = z.ZodObject<{}>

/**
 * What a body may return: anything, or — after `.returns(schema)` — the schema's input, alone or
 * as the structured part of `withContent(...)`.
 */
export type ReturnInput<O> = O extends z.ZodObject ? z.input<O> | ToolContent<z.input<O>> : unknown
/** What the call's result is: the body's value, or — after `.returns(schema)` — the schema's output. */
export type ReturnOutput<O, R> = O extends z.ZodObject ? z.output<O> : R

/**
 * What `createMcpTool(name)` returns: metadata, `.parameters()`, `.returns()` and `.requires()`, then `.elicits({...})` (required, even `{}`).
 */
export interface McpToolBuilder<N extends string, P extends z.ZodObject, O extends z.ZodObject | undefined = undefined> {
  /** A name for people ("Book a flight"): tool cards and MCP clients show it; the name stays for the model. */
  title(text: string): McpToolBuilder<N, P, O>
  description(text: string): McpToolBuilder<N, P, O>
  /** Hints for clients (MCP tool annotations): read-only, destructive, idempotent, open-world. */
  annotations(annotations: ToolAnnotations): McpToolBuilder<N, P, O>
  /** Icons for clients' tool lists: https or data URLs. */
  icons(icons: readonly ToolIcon[]): McpToolBuilder<N, P, O>
  /**
   * OAuth scopes a caller's token must grant to call this tool over an MCP endpoint with `auth`
   * (else `403 insufficient_scope` naming them, so the client can ask for more).
   */
  scopes(scopes: readonly string[]): McpToolBuilder<N, P, O>
  /** The result's shape (a zod object): MCP `outputSchema`; results are validated and sent as `structuredContent`. */
  returns<NO extends z.ZodObject>(schema: NO): McpToolBuilder<N, P, NO>
  parameters<NP extends z.ZodObject>(schema: NP): McpToolBuilder<N, NP, O>
  requires(requirements: Partial<ToolRequirements>): McpToolBuilder<N, P, O>
  /** Whether MCP Tasks clients get its calls as tasks: `'optional'`, `'required'` or `'forbidden'` (see `TaskSupport`). */
  taskSupport(mode: TaskSupport): McpToolBuilder<N, P, O>
  /** Declare every elicitation the tool may ask for (leave it out for a tool that never asks). */
  elicits<const E extends ElicitsMap>(elicits: E): McpToolBuilderWithElicits<N, P, E, O>
  /** The tool body of a tool that asks the user nothing (it may sample, log, notify and take steps). */
  execute<R extends ReturnInput<O>>(body: (params: z.output<P>, ctx: McpToolContext<{}>) => Operation<R>): McpTool<N, P, {}, ReturnOutput<O, R>>
}

/**
 * A tool builder after `.elicits({...})`: `.plainForm()`, then `.execute(body)` or `.handoff(phases)` ends the definition.
 */
export interface McpToolBuilderWithElicits<N extends string, P extends z.ZodObject, E extends ElicitsMap, O extends z.ZodObject | undefined = undefined> {
  title(text: string): McpToolBuilderWithElicits<N, P, E, O>
  description(text: string): McpToolBuilderWithElicits<N, P, E, O>
  annotations(annotations: ToolAnnotations): McpToolBuilderWithElicits<N, P, E, O>
  icons(icons: readonly ToolIcon[]): McpToolBuilderWithElicits<N, P, E, O>
  scopes(scopes: readonly string[]): McpToolBuilderWithElicits<N, P, E, O>
  returns<NO extends z.ZodObject>(schema: NO): McpToolBuilderWithElicits<N, P, E, NO>
  parameters<NP extends z.ZodObject>(schema: NP): McpToolBuilderWithElicits<N, NP, E, O>
  requires(requirements: Partial<ToolRequirements>): McpToolBuilderWithElicits<N, P, E, O>
  taskSupport(mode: TaskSupport): McpToolBuilderWithElicits<N, P, E, O>
  /**
   * How questions read in a plain MCP form (a client without this tool's UI): titled choices for
   * free string fields, and a readable summary of the context, per key. See "A plain MCP form".
   */
  plainForm(forms: PlainForms<E>): McpToolBuilderWithElicits<N, P, E, O>
  /** The tool body: one generator that may elicit, sample, log and notify. */
  execute<R extends ReturnInput<O>>(body: (params: z.output<P>, ctx: McpToolContext<E>) => Operation<R>): McpTool<N, P, E, ReturnOutput<O, R>>
  /** Three phases: `before` (server, once) → `client` (interactive) → `after` (server, once). */
  handoff<H, CR, R extends ReturnInput<O>>(phases: HandoffPhases<P, E, H, CR, R>): McpTool<N, P, E, ReturnOutput<O, R>>
}

interface BuilderState {
  name: string
  title: string | undefined
  description: string | undefined
  annotations: Readonly<ToolAnnotations> | undefined
  icons: readonly ToolIcon[] | undefined
  scopes: readonly string[]
  returns: { schema: z.ZodObject; json: JsonSchema } | undefined
  parameters: z.ZodObject
  parametersJson: JsonSchema
  requirements: Partial<ToolRequirements>
  taskSupport: TaskSupport | undefined
  elicits: { map: ElicitsMap; compiled: CompileResult } | undefined
  plainForms: Readonly<Record<string, PlainFormSpec>>
}

/**
 * Defines a tool once, for the app's chat and for MCP clients: a name (MCP naming rules, checked now), parameters,
 * the questions it may ask (`.elicits`, their schemas checked against the MCP form rules now) and a body that is
 * an Effection generator calling `ctx.elicit`, `ctx.sample`, `ctx.log` and `ctx.notify`.
 *
 * @example
 * ```ts
 * import { createMcpTool } from '@mcp-bridge/runtime'
 * import { z } from 'zod'
 *
 * export const bookFlight = createMcpTool('book_flight')
 *   .title('Book a flight')
 *   .description('Book a flight for the user')
 *   .parameters(z.object({ destination: z.string() }))
 *   .elicits({
 *     pickSeat: z.object({ row: z.int().min(1).max(30), seat: z.enum(['A', 'B', 'C', 'D']) }),
 *   })
 *   .execute(function* (params, ctx) {
 *     const seat = yield* ctx.elicit('pickSeat', { message: `Pick a seat to ${params.destination}` })
 *     if (seat.action !== 'accept') return 'Not booked'
 *     yield* ctx.notify('Booking', 1, 1)
 *     return `Booked seat ${seat.content.row}${seat.content.seat}`
 *   })
 * ```
 */
export function createMcpTool<const N extends string>(name: N): McpToolBuilder<N, EmptyParameters> {
  assertToolName(name)
  const parameters = z.object({})
  const state: BuilderState = {
    name,
    title: undefined,
    description: undefined,
    annotations: undefined,
    icons: undefined,
    scopes: [],
    returns: undefined,
    parameters,
    parametersJson: toJsonSchema(parameters, 'input').json,
    requirements: {},
    taskSupport: undefined,
    elicits: undefined,
    plainForms: {},
  }
  return new Builder(state) as unknown as McpToolBuilder<N, EmptyParameters>
}

const REQUIREMENT_KEYS = ['elicitation', 'sampling'] as const
const TASK_SUPPORT = ['forbidden', 'optional', 'required'] as const satisfies readonly TaskSupport[]

class Builder {
  constructor(private readonly state: Readonly<BuilderState>) {
    Object.freeze(this)
  }

  private fail(problem: string): never {
    throw new ToolDefinitionError(this.state.name, problem)
  }

  private with(patch: Partial<BuilderState>): Builder {
    return new Builder(Object.freeze({ ...this.state, ...patch }))
  }

  title(text: string): Builder {
    if (typeof text !== 'string' || text.trim() === '' || text.length > 200) {
      this.fail(
        `.title() takes a short non-empty string for people, e.g. .title('Book a flight') (got ${typeof text === 'string' ? JSON.stringify(text.slice(0, 40)) : typeof text})`,
      )
    }
    return this.with({ title: text })
  }

  description(text: string): Builder {
    if (typeof text !== 'string') this.fail(`.description() takes a string (got ${typeof text})`)
    return this.with({ description: text })
  }

  annotations(annotations: ToolAnnotations): Builder {
    const problem = metadataProblem(annotationsSchema, annotations, '.annotations()')
    if (problem) this.fail(`${problem} (known hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint — each true or false)`)
    return this.with({ annotations: Object.freeze({ ...annotations }) })
  }

  icons(icons: readonly ToolIcon[]): Builder {
    const problem = metadataProblem(iconsSchema, icons, '.icons()')
    if (problem) this.fail(problem)
    return this.with({ icons: Object.freeze(icons.map((icon) => Object.freeze({ ...icon, ...(icon.sizes && { sizes: [...icon.sizes] }) }))) })
  }

  scopes(scopes: readonly string[]): Builder {
    const bad = Array.isArray(scopes) ? scopes.find((s) => typeof s !== 'string' || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s)) : scopes
    if (!Array.isArray(scopes) || bad !== undefined) {
      this.fail(`.scopes() takes a list of OAuth scopes — printable characters, no spaces, quotes or backslashes — e.g. .scopes(['trips:write']) (got ${JSON.stringify(bad)})`)
    }
    return this.with({ scopes: Object.freeze([...new Set([...this.state.scopes, ...scopes])]) })
  }

  returns(schema: z.ZodObject): Builder {
    const json = this.objectJson(schema, 'output', '.returns()', 'an MCP outputSchema is an object', 'z.object({ booked: z.boolean() })', 'results travel as JSON')
    return this.with({ returns: { schema, json } })
  }

  parameters(schema: z.ZodObject): Builder {
    const json = this.objectJson(schema, 'input', '.parameters()', 'models send an object of arguments', 'z.object({ city: z.string() })', 'models send JSON')
    return this.with({ parameters: schema, parametersJson: json })
  }

  /** A zod object as JSON Schema, or a definition error saying what to write instead. */
  private objectJson(schema: unknown, io: 'input' | 'output', step: string, whyObject: string, example: string, whyJson: string): JsonSchema {
    if (!isZodObject(schema)) this.fail(`${step} takes a zod 4 object schema (${whyObject}), e.g. ${step.slice(0, -1)}${example})`)
    const { json, unrepresentable } = toJsonSchema(schema, io)
    if (unrepresentable.length > 0) {
      const lines = unrepresentable.map((n) => `  - ${n.pointer || '(root)'}: ${UNREPRESENTABLE_FIXES[n.zodType] ?? n.zodType}`)
      this.fail(`${step} must be JSON-representable (${whyJson}):\n${lines.join('\n')}`)
    }
    return json
  }

  requires(requirements: Partial<ToolRequirements>): Builder {
    if (!isPlainObject(requirements)) this.fail('.requires() takes { elicitation?: boolean, sampling?: boolean }')
    for (const [key, value] of Object.entries(requirements)) {
      if (!(REQUIREMENT_KEYS as readonly string[]).includes(key)) {
        this.fail(`.requires() has no capability "${key}"; known: ${REQUIREMENT_KEYS.join(', ')}`)
      }
      if (typeof value !== 'boolean') this.fail(`.requires({ ${key} }) must be true or false`)
    }
    return this.with({ requirements: { ...this.state.requirements, ...requirements } })
  }

  taskSupport(mode: TaskSupport): Builder {
    if (!(TASK_SUPPORT as readonly unknown[]).includes(mode)) this.fail(`.taskSupport() takes ${TASK_SUPPORT.map((m) => `'${m}'`).join(', ')} (got ${JSON.stringify(mode)})`)
    return this.with({ taskSupport: mode })
  }

  elicits(map: ElicitsMap): Builder {
    if (this.state.elicits) this.fail('.elicits() was called twice; declare every key in one call')
    if (!isPlainObject(map)) this.fail('.elicits() takes an object of keys, e.g. .elicits({ confirm: z.object({ ok: z.boolean() }) }) or {}')
    const compiled = compileElicits(this.state.name, map)
    if (compiled.errors.length > 0) throw new ElicitationSchemaError(this.state.name, compiled.errors, compiled.warnings)
    return this.with({ elicits: { map, compiled } })
  }

  plainForm(forms: Record<string, PlainFormSpec>): Builder {
    if (!this.state.elicits) this.fail('.plainForm({...}) comes after .elicits({...}): it describes the keys declared there')
    const problem = plainFormProblem(forms, this.state.elicits.compiled.entries)
    if (problem) this.fail(problem)
    return this.with({ plainForms: Object.freeze({ ...this.state.plainForms, ...forms }) })
  }

  execute(execute: unknown): McpTool {
    if (typeof execute !== 'function') this.fail('.execute() takes a generator function: .execute(function* (params, ctx) { ... })')
    return this.finish({ kind: 'execute', execute: execute as ExecuteBody<z.ZodObject, ElicitsMap, unknown>['execute'] })
  }

  handoff(phases: Record<string, unknown>): McpTool {
    if (!isPlainObject(phases)) this.fail('.handoff() takes { *before(params, ctx), *client(handoff, ctx), *after(handoff, result, ctx) }')
    for (const phase of ['before', 'client', 'after']) {
      if (typeof phases[phase] !== 'function') this.fail(`.handoff() is missing the ${phase} phase (a generator function)`)
    }
    const { before, client, after } = phases as unknown as HandoffPhases<z.ZodObject, ElicitsMap, unknown, unknown, unknown>
    return this.finish({ kind: 'handoff', before, client, after })
  }

  private finish(body: McpTool['body']): McpTool {
    // A tool that asks nothing may leave `.elicits()` out; a handoff's client phase is there to ask.
    if (!this.state.elicits && body.kind === 'handoff') {
      this.fail('.elicits({...}) must come before .handoff(): its client phase asks the user what the keys declare')
    }
    const elicits = this.state.elicits ?? { map: {}, compiled: compileElicits(this.state.name, {}) }
    const keys = Object.keys(elicits.map)
    const requirements = Object.freeze({
      elicitation: this.state.requirements.elicitation ?? keys.length > 0,
      sampling: this.state.requirements.sampling ?? false,
    })
    const tool: McpTool = {
      kind: 'mcp-tool',
      name: this.state.name,
      title: this.state.title,
      description: this.state.description,
      annotations: this.state.annotations,
      icons: this.state.icons,
      scopes: this.state.scopes,
      returns: this.state.returns?.schema,
      parameters: this.state.parameters,
      elicits: elicits.map,
      compiled: Object.freeze(elicits.compiled.entries),
      requirements,
      // A tool that may ask can wait on a person for long: a task lets its client leave and come back.
      taskSupport: this.state.taskSupport ?? (keys.length > 0 || requirements.sampling ? 'optional' : 'forbidden'),
      jsonSchema: Object.freeze({ parameters: this.state.parametersJson, ...(this.state.returns && { output: this.state.returns.json }) }),
      plainForms: this.state.plainForms,
      warnings: Object.freeze([...elicits.compiled.warnings, ...plainFormWarnings(this.state.name, elicits.compiled.entries, this.state.plainForms)]),
      body: Object.freeze(body),
    }
    return Object.freeze(tool)
  }
}
