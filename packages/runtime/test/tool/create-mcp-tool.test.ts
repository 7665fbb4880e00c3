import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../../src/index.ts'
import { ElicitationSchemaError, InvalidToolNameError, ToolDefinitionError } from '../../src/errors.ts'
import { formatViolation, toolNameProblem } from '../../src/build.ts'

const flight = z.object({ id: z.string(), price: z.number() })

function* noop(): Generator<never, string> {
  return 'done'
}

describe('createMcpTool', () => {
  it('exposes name, description, parameters, elicits, requirements and JSON Schemas', () => {
    const params = z.object({ from: z.string(), to: z.string() })
    const pickFlight = { response: z.object({ flightId: z.string() }), context: z.object({ flights: z.array(flight) }) }
    const confirm = z.object({ ok: z.boolean() })
    const tool = createMcpTool('book_flight').description('Book a flight').parameters(params).elicits({ pickFlight, confirm }).execute(noop)

    expect(tool.kind).toBe('mcp-tool')
    expect(tool.name).toBe('book_flight')
    expect(tool.description).toBe('Book a flight')
    expect(tool.parameters).toBe(params)
    expect(tool.elicits.confirm).toBe(confirm)
    expect(tool.requirements).toEqual({ elicitation: true, sampling: false })
    expect(tool.jsonSchema.parameters).toMatchObject({
      type: 'object',
      properties: { from: { type: 'string' }, to: { type: 'string' } },
      required: ['from', 'to'],
    })
    expect(tool.compiled.pickFlight!.wire).toMatchObject({ type: 'object', properties: { flightId: { type: 'string' } } })
    expect(tool.compiled.confirm!.wire).toMatchObject({ properties: { ok: { type: 'boolean' } } })
    expect(tool.body.kind).toBe('execute')
    // A free id a person in a plain MCP form could not know: a warning with the fix (see plain-form.test.ts).
    expect(tool.warnings.map((w) => [w.rule, w.key, w.property])).toEqual([['plain-form-unanswerable', 'pickFlight', 'flightId']])
    expect(tool.plainForms).toEqual({})
  })

  it('is immutable: each step returns a new builder and the tool is frozen', () => {
    const base = createMcpTool('shared').description('one')
    const a = base.elicits({}).execute(noop)
    const b = base.description('two').elicits({}).execute(noop)
    expect(a.description).toBe('one')
    expect(b.description).toBe('two')
    expect(Object.isFrozen(a)).toBe(true)
    expect(Object.isFrozen(a.requirements)).toBe(true)
    expect(() => {
      ;(a as { name: string }).name = 'x'
    }).toThrow(TypeError)
  })

  it('defaults: empty parameters, no elicitation required for `{}`, explicit requires wins', () => {
    const tool = createMcpTool('plain').elicits({}).execute(noop)
    expect(tool.requirements).toEqual({ elicitation: false, sampling: false })
    expect(tool.jsonSchema.parameters).toMatchObject({ type: 'object', properties: {} })
    const sampled = createMcpTool('s')
      .requires({ sampling: true, elicitation: false })
      .elicits({ a: z.object({ b: z.boolean() }) })
      .execute(noop)
    expect(sampled.requirements).toEqual({ elicitation: false, sampling: true })
  })

  it('builds a handoff tool with all three phases', () => {
    const tool = createMcpTool('h')
      .elicits({})
      .handoff({
        *before() {
          return 1
        },
        *client(n) {
          return n + 1
        },
        *after(n, m) {
          return n + m
        },
      })
    expect(tool.body.kind).toBe('handoff')
  })

  it('says a schema that is undefined at definition time may come from a circular import (not "not zod 4")', () => {
    const define = () => createMcpTool('cyclic').elicits({ pick: undefined as never })
    expect(define).toThrow(ElicitationSchemaError)
    expect(define).toThrow(/pick: the response schema is undefined when the tool is defined; if it is imported, check for a circular import/)
  })

  it('collects every schema error of every key into one ElicitationSchemaError', () => {
    const define = () =>
      createMcpTool('bad_tool').elicits({
        pickFlight: z.object({ tags: z.array(z.string()), user: z.object({ n: z.string() }) }),
        when: z.object({ at: z.date() }),
        ctx: { response: z.object({ ok: z.boolean() }), context: z.object({ message: z.string() }) },
      })
    expect(define).toThrow(ElicitationSchemaError)
    try {
      define()
    } catch (e) {
      const error = e as ElicitationSchemaError
      expect(error.code).toBe('ELICITATION_SCHEMA_INVALID')
      expect(error.violations.map(formatViolation)).toEqual([
        'pickFlight.tags: arrays are only allowed as multi-select enums; use z.array(z.enum([...]))',
        expect.stringMatching(/^pickFlight\.user: nested objects are not allowed/),
        expect.stringMatching(/^when\.at: z\.date\(\) has no JSON form/),
        expect.stringMatching(/^ctx\.context\.message: "message" is an option of ctx\.elicit/),
      ])
      expect(error.message).toContain('Tool "bad_tool"')
      expect(error.message).toContain('4 problems')
    }
  })

  it('keeps warnings on the tool instead of throwing', () => {
    const tool = createMcpTool('color')
      .elicits({ pick: z.object({ color: z.string().regex(/^#[0-9a-fA-F]{6}$/) }) })
      .execute(noop)
    expect(tool.warnings).toMatchObject([{ key: 'pick', property: 'color', rule: 'pattern', severity: 'warning' }])
    expect(tool.compiled.pick!.wire.properties.color).toEqual({ type: 'string' })
  })

  it('rejects a context schema whose output cannot travel as JSON', () => {
    expect(() =>
      createMcpTool('ctx_dates').elicits({
        pick: { response: z.object({ id: z.string() }), context: z.object({ when: z.date() }) },
      }),
    ).toThrow(/pick\.context\.when: z\.date\(\)/)
  })

  it('validates builder input at run time with errors that say what to write', () => {
    const b = createMcpTool('t')
    expect(() => b.parameters(z.string() as never)).toThrow(ToolDefinitionError)
    expect(() => b.parameters(z.object({ at: z.date() }))).toThrow(/JSON-representable[\s\S]*\/properties\/at/)
    expect(() => b.requires({ network: true } as never)).toThrow(/no capability "network"/)
    expect(() => b.requires({ sampling: 'yes' } as never)).toThrow(/must be true or false/)
    expect(() => b.description(3 as never)).toThrow(/takes a string/)
    expect(() => b.title('  ')).toThrow(/\.title\(\) takes a short non-empty string for people, e\.g\. \.title\('Book a flight'\) \(got "  "\)/)
    expect(() => b.title('x'.repeat(201))).toThrow(/short non-empty string/)
    expect(b.title('Book a flight').elicits({}).execute(noop).title).toBe('Book a flight')
    expect(b.elicits({}).execute(noop).title).toBeUndefined()
    expect(() => b.elicits(null as never)).toThrow(/takes an object of keys/)
    expect(() => (b.elicits({}) as unknown as { elicits: (e: object) => void }).elicits({})).toThrow(/called twice/)
    expect(() => b.elicits({}).execute('nope' as never)).toThrow(/generator function/)
    expect(() => b.elicits({}).handoff({ before: noop, client: noop } as never)).toThrow(/missing the after phase/)
    // A tool that asks nothing may leave .elicits() out; a handoff (its client phase asks) may not,
    // and JavaScript callers get a clear error.
    expect(b.execute(noop).elicits).toEqual({})
    expect(() => (b as unknown as { handoff: (p: unknown) => void }).handoff({ before: noop, client: noop, after: noop })).toThrow(
      /\.elicits\(\{\.\.\.\}\) must come before \.handoff\(\)/,
    )
  })
})

describe('tool names (MCP 2025-11-25 guidance)', () => {
  it.each(['book_flight', 'getUser', 'DATA_EXPORT_v2', 'admin.tools.list', 'user-profile', 'a', 'x'.repeat(128)])('accepts %s', (name) => {
    expect(toolNameProblem(name)).toBeUndefined()
    expect(() => createMcpTool(name)).not.toThrow()
  })

  it.each([
    ['', /empty/],
    ['x'.repeat(129), /129 characters long \(at most 128\)/],
    ['book flight', /a space/],
    ['user/profile', /"\/"/],
    ['café', /"é"/],
    ['a,b', /","/],
    ['__schema__', /reserved/],
  ])('rejects %j', (name, reason) => {
    expect(() => createMcpTool(name)).toThrow(InvalidToolNameError)
    expect(() => createMcpTool(name)).toThrow(reason)
    expect(() => createMcpTool(name)).toThrow(/1–128 characters/)
  })
})
