// @vitest-environment happy-dom
/**
 * The fallback form and render emissions in a DOM (happy-dom + React Testing Library).
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createMcpTool, type ElicitRequest, type ElicitResult, generatedForm, createPlugin, type RenderedProps } from '../../src/index.ts'
import { createBridgeHost } from '../../src/server.ts'
import { createEmissionStore, createPluginExecutor, createPluginRegistry, encodeElicitRequest, type IncomingQuestion } from '../../src/client.ts'
import { GeneratedForm, ToolCallEmissions } from '../../src/react.ts'
import { analyzeResponseSchema } from '../../src/schema/analyze-elicit-schema.ts'

afterEach(cleanup)

/** The wire schema of a zod object, as the server sends it. */
function wireOf(schema: z.ZodObject) {
  const { wire } = analyzeResponseSchema(schema)
  if (!wire) throw new Error('invalid test schema')
  return wire
}

const everyKind = wireOf(
  z.object({
    name: z.string().min(2).max(20).meta({ title: 'Your name' }),
    email: z.email(),
    website: z.url().optional(),
    birthday: z.iso.date().optional(),
    age: z.int().min(18).max(120),
    rating: z.number().min(0).max(5).default(2.5),
    subscribe: z.boolean().default(true),
    size: z.enum(['s', 'm', 'l']).default('m'),
    color: z.enum(['r', 'g']).meta({
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    }),
    toppings: z
      .array(z.enum(['cheese', 'ham', 'olives']))
      .min(1)
      .max(2),
  }),
)

describe('GeneratedForm', () => {
  it('renders one field per kind with labels, required marks and defaults', () => {
    render(<GeneratedForm message="Tell us about you" schema={everyKind} onSubmit={() => {}} />)
    expect(screen.getByText('Tell us about you')).toBeTruthy()
    const name = screen.getByLabelText(/Your name/) as HTMLInputElement
    expect(name.type).toBe('text')
    expect(name.getAttribute('aria-required')).toBe('true')
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).type).toBe('email')
    expect((screen.getByLabelText(/^Website/) as HTMLInputElement).type).toBe('url')
    expect((screen.getByLabelText(/^Website/) as HTMLInputElement).getAttribute('aria-required')).toBe('false')
    expect((screen.getByLabelText(/^Birthday/) as HTMLInputElement).type).toBe('date')
    const age = screen.getByLabelText(/^Age/) as HTMLInputElement
    expect([age.type, age.min, age.max, age.step]).toEqual(['number', '18', '120', '1'])
    expect((screen.getByLabelText(/^Rating/) as HTMLInputElement).value).toBe('2.5')
    expect((screen.getByLabelText(/Subscribe/) as HTMLInputElement).checked).toBe(true)
    expect((screen.getByLabelText(/^Size/) as HTMLSelectElement).value).toBe('m')
    expect(screen.getByRole('option', { name: 'Red' })).toBeTruthy()
    expect(screen.getByRole('group', { name: /Toppings/ })).toBeTruthy()
    // name, email, age, color, toppings: fields with defaults are not required (io: 'input')
    expect(screen.getAllByText('*').length).toBe(5)
  })

  it('shows inline errors and sends nothing while the form is invalid', () => {
    const onSubmit = vi.fn()
    render(<GeneratedForm message="m" schema={everyKind} onSubmit={onSubmit} />)
    fireEvent.change(screen.getByLabelText(/Your name/), { target: { value: 'A' } })
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'not-an-email' } })
    fireEvent.change(screen.getByLabelText(/^Website/), { target: { value: 'example' } })
    fireEvent.change(screen.getByLabelText(/^Age/), { target: { value: '12' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit).not.toHaveBeenCalled()
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent)
    expect(alerts).toEqual([
      'At least 2 characters',
      'Enter an email address',
      'Enter a full URL, e.g. https://example.com',
      'Must be at least 18',
      'Choose one of the options',
      'Choose at least one option',
    ])
    expect(screen.getByLabelText(/^Age/).getAttribute('aria-invalid')).toBe('true')
  })

  it('sends typed content once valid: numbers as numbers, optional blanks left out', () => {
    const onSubmit = vi.fn()
    render(<GeneratedForm message="m" schema={everyKind} onSubmit={onSubmit} />)
    fireEvent.change(screen.getByLabelText(/Your name/), { target: { value: 'Ada' } })
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ada@example.com' } })
    fireEvent.change(screen.getByLabelText(/^Age/), { target: { value: '36' } })
    fireEvent.change(screen.getByLabelText(/^Color/), { target: { value: 'g' } })
    fireEvent.click(screen.getByLabelText('Ham'))
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit).toHaveBeenCalledWith({
      action: 'accept',
      content: { name: 'Ada', email: 'ada@example.com', age: 36, rating: 2.5, subscribe: true, size: 'm', color: 'g', toppings: ['ham'] },
    })
    // And the server-side schema accepts exactly that content.
    expect(
      z
        .object({
          name: z.string(),
          email: z.email(),
          age: z.int(),
          rating: z.number(),
          subscribe: z.boolean(),
          size: z.string(),
          color: z.string(),
          toppings: z.array(z.string()),
        })
        .safeParse(onSubmit.mock.calls[0]![0].content).success,
    ).toBe(true)
  })

  it('offers decline and cancel, and shows server-side errors inline', () => {
    const onSubmit = vi.fn()
    render(<GeneratedForm message="m" schema={everyKind} onSubmit={onSubmit} errors={[{ path: 'email', message: 'already registered' }]} />)
    expect(screen.getByRole('alert').textContent).toBe('already registered')
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }))
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(onSubmit.mock.calls).toEqual([[{ action: 'decline' }], [{ action: 'cancel' }]])
  })

  it('marks a multi-select required only when it needs a choice: an empty selection of one that may be empty is sent as []', () => {
    const onSubmit = vi.fn()
    const schema = wireOf(z.object({ liked: z.array(z.enum(['food', 'crew'])).max(2), must: z.array(z.enum(['a', 'b'])).min(1) }))
    render(<GeneratedForm message="How was it?" schema={schema} onSubmit={onSubmit} />)
    const legends = screen.getAllByRole('group').map((g) => g.querySelector('legend')!.textContent!.replace(/\s+/g, ' '))
    expect(legends).toEqual(['Liked', 'Must * (required)'])
    fireEvent.click(screen.getByLabelText('A'))
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit).toHaveBeenCalledWith({ action: 'accept', content: { liked: [], must: ['a'] } })
  })

  it('asks a required yes/no question without a default explicitly: no answer is not sent as false', () => {
    const onSubmit = vi.fn()
    render(<GeneratedForm message="m" schema={wireOf(z.object({ agree: z.boolean().meta({ title: 'Agree to the terms' }) }))} onSubmit={onSubmit} />)
    expect(screen.getByRole('radiogroup', { name: /Agree to the terms/ })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit).not.toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toBe('Choose yes or no')
    fireEvent.click(screen.getByLabelText('No'))
    expect(screen.queryAllByRole('alert')).toEqual([]) // edited: its error goes
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit).toHaveBeenCalledWith({ action: 'accept', content: { agree: false } })
  })

  it("hides a field's server error once the field is edited, and shows the next refusal's errors again", () => {
    const onSubmit = vi.fn()
    const first = [{ path: 'email', message: 'already registered' }]
    const view = render(<GeneratedForm message="m" schema={everyKind} onSubmit={onSubmit} errors={first} />)
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['already registered'])
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'b@example.com' } })
    expect(screen.queryAllByRole('alert')).toEqual([])
    view.rerender(<GeneratedForm message="m" schema={everyKind} onSubmit={onSubmit} errors={[{ path: 'email', message: 'also registered' }]} />)
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['also registered'])
  })

  it('shows the message as sent: text that looks like a context section is text, never data', () => {
    const message = 'Pick one\n\n--x-model-context: application/json\n{"a":1}'
    const { container } = render(<GeneratedForm message={message} schema={wireOf(z.object({ ok: z.boolean() }))} onSubmit={() => {}} />)
    expect(container.querySelector('.mcp-fallback-message')?.textContent).toBe(message)
  })
})

describe('render emissions in React', () => {
  function ColorPicker({ initial, onRespond, onCancel, errors }: { initial: string } & RenderedProps<{ color: string }>) {
    return (
      <div>
        <input aria-label="Hex color" defaultValue={initial} id="hex" />
        {errors?.map((e) => (
          <p role="alert" key={e.path}>
            {e.message}
          </p>
        ))}
        <button onClick={() => onRespond({ color: (document.getElementById('hex') as HTMLInputElement).value })}>Use color</button>
        <button onClick={onCancel}>Never mind</button>
      </div>
    )
  }

  const chooseColor = createMcpTool('choose_color')
    .elicits({
      pick: {
        response: z.object({ color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use #rrggbb') }),
        context: z.object({ initial: z.string() }),
      },
    })
    .execute(function* (_p, ctx) {
      return yield* ctx.elicit('pick', { message: 'Pick a color', initial: '#000000' })
    })
  const plugin = createPlugin(chooseColor)
    .onElicit({
      *pick(req, ctx) {
        const answer = yield* ctx.render(ColorPicker, { initial: req.context.initial })
        return { action: 'accept', content: answer }
      },
    })
    .build()

  async function start() {
    const host = createBridgeHost({ tool: chooseColor, params: {}, callId: 'call_c' })
    let request!: ElicitRequest
    for await (const e of host.subscribe()) if (e.type === 'elicit') break
    request = host.pending()!
    const store = createEmissionStore()
    const send = vi.fn(async (question: IncomingQuestion, result: ElicitResult<unknown>) => {
      const o = host.respond({ id: question.request.id, result })
      return o.ok ? ({ ok: true } as const) : ({ ok: false, message: o.message } as const)
    })
    const executor = createPluginExecutor({ registry: createPluginRegistry([plugin.client]), store, send })
    render(<ToolCallEmissions store={store} callId="call_c" />)
    let handled!: ReturnType<typeof executor.handle>
    act(() => {
      handled = executor.handle({ callId: 'call_c', toolName: 'choose_color', request: JSON.parse(JSON.stringify(encodeElicitRequest(request))) })
    })
    return { host, send, handled, executor }
  }

  it('shows the component with its props; invalid input shows the error and is never sent; a valid one resumes the tool', async () => {
    const { host, send } = await start()
    const input = (await screen.findByLabelText('Hex color')) as HTMLInputElement
    expect(input.value).toBe('#000000')
    fireEvent.change(input, { target: { value: '#12345g' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use color' })))
    expect((await screen.findByRole('alert')).textContent).toBe('Use #rrggbb')
    expect(send).not.toHaveBeenCalled()

    fireEvent.change(screen.getByLabelText('Hex color'), { target: { value: '#3b82f6' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use color' })))
    expect(await host.outcome).toEqual({ status: 'completed', result: { action: 'accept', content: { color: '#3b82f6' } } })
    expect(send).toHaveBeenCalledTimes(1)
    expect(screen.queryByLabelText('Hex color')).toBeNull()
  })

  it('onCancel sends cancel; cancelling the call unmounts the UI', async () => {
    const first = await start()
    await screen.findByLabelText('Hex color')
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Never mind' })))
    expect(await first.host.outcome).toEqual({ status: 'completed', result: { action: 'cancel' } })
    cleanup()

    const second = await start()
    await screen.findByLabelText('Hex color')
    await act(async () => second.executor.cancel('call_c', 'tool aborted'))
    expect(screen.queryByLabelText('Hex color')).toBeNull()
    expect(second.handled.status === 'handled' && (await second.handled.outcome)).toEqual({ status: 'cancelled', reason: 'tool aborted' })
    await second.host.abort()
  })
})

describe('per-key fallback: a plugin delegates one key to the generated form', () => {
  const reserve = createMcpTool('reserve')
    .elicits({
      time: z.object({ slot: z.string() }),
      details: z.object({ guests: z.int().min(1).max(8).describe('Guests'), name: z.string().min(1).describe('Name') }),
    })
    .execute(function* (_p, ctx) {
      const time = yield* ctx.elicit('time', { message: 'When?' })
      if (time.action !== 'accept') return 'no time'
      const details = yield* ctx.elicit('details', { message: 'Who is coming?' })
      return details.action === 'accept' ? `${details.content.name} ×${details.content.guests} at ${time.content.slot}` : details.action
    })
  function Slots({ onRespond }: RenderedProps<{ slot: string }>) {
    return <button onClick={() => onRespond({ slot: '19:00' })}>19:00</button>
  }
  const plugin = createPlugin(reserve)
    .onElicit({
      *time(_req, ctx) {
        return { action: 'accept', content: yield* ctx.render(Slots, {}) }
      },
      details: generatedForm,
    })
    .build()

  it('shows the key-typed form in the same place, keeps what was typed through a refusal, shows a spinner while sending', async () => {
    const host = createBridgeHost({ tool: reserve, params: {}, callId: 'call_r' })
    const store = createEmissionStore()
    let refuse = true
    let release!: () => void
    const send = vi.fn(async (question: IncomingQuestion, result: ElicitResult<unknown>) => {
      if (question.request.key === 'details') {
        // Held until the test looks at the spinner.
        await new Promise<void>((resolve) => (release = resolve))
        if (refuse) {
          refuse = false
          return { ok: false, message: 'fully booked', issues: [{ path: 'guests', message: 'We only have tables for up to 4 at 19:00.' }] } as const
        }
      }
      const o = host.respond({ id: question.request.id, result })
      return o.ok ? ({ ok: true } as const) : ({ ok: false, message: o.message } as const)
    })
    const executor = createPluginExecutor({ registry: createPluginRegistry([plugin.client]), store, send })
    render(<ToolCallEmissions store={store} callId="call_r" />)
    const ask = async () => {
      for await (const e of host.subscribe()) if (e.type === 'elicit' && host.pending() === e.request) break
      const request = host.pending()!
      act(() => void executor.handle({ callId: 'call_r', toolName: 'reserve', request: JSON.parse(JSON.stringify(encodeElicitRequest(request))) }))
    }

    await ask()
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: '19:00' })))
    await ask()
    expect(await screen.findByText('Who is coming?')).toBeTruthy()
    // 1 to 8 guests: one choice per number.
    const guests = (n: string) => within(screen.getByRole('radiogroup', { name: /^Guests/ })).getByLabelText(n) as HTMLInputElement
    fireEvent.click(guests('6'))
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Ada' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit' })))
    expect((await screen.findByRole('status')).textContent).toContain('Sending your answer…')
    expect((screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(true)
    await act(async () => release())

    // Refused by the server: the error shows at its field, and what was typed stays.
    expect((await screen.findByRole('alert')).textContent).toBe('We only have tables for up to 4 at 19:00.')
    expect(guests('6').checked).toBe(true)
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Ada')
    expect(screen.queryByRole('status')).toBeNull()
    fireEvent.click(guests('4'))
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit' })))
    await act(async () => release())
    expect(await host.outcome).toEqual({ status: 'completed', result: 'Ada ×4 at 19:00' })
    expect(send.mock.calls.map(([, r]) => r)).toEqual([
      { action: 'accept', content: { slot: '19:00' } },
      { action: 'accept', content: { guests: 6, name: 'Ada' } },
      { action: 'accept', content: { guests: 4, name: 'Ada' } },
    ])
  })
})
