/**
 * The official MCP conformance suite's test tools, written with mcp-bridge's public API as a user
 * would write them (`@modelcontextprotocol/conformance` describes each in its server scenarios).
 * Only what the suite asks for: each tool's name, arguments and result are the suite's.
 */
import { createMcpTool, withContent } from '@mcp-bridge/runtime'
import { sleep } from 'effection'
import { z } from 'zod'

export const simpleText = createMcpTool('test_simple_text')
  .description('Returns a simple text response')
  .elicits({})
  .execute(function* () {
    return 'This is a simple text response for testing.'
  })

export const withLogging = createMcpTool('test_tool_with_logging')
  .description('Sends three log messages while it runs')
  .elicits({})
  .execute(function* (_params, ctx) {
    yield* ctx.log('info', 'Tool execution started')
    yield* sleep(50)
    yield* ctx.log('info', 'Tool processing data')
    yield* sleep(50)
    yield* ctx.log('info', 'Tool execution completed')
    return 'Logging test completed'
  })

export const errorHandling = createMcpTool('test_error_handling')
  .description('Always fails')
  .elicits({})
  .execute(function* () {
    throw new Error('This tool intentionally returns an error for testing')
  })

export const withProgress = createMcpTool('test_tool_with_progress')
  .description('Reports progress 0, 50 and 100 of 100')
  .elicits({})
  .execute(function* (_params, ctx) {
    yield* ctx.notify('started', 0, 100)
    yield* sleep(50)
    yield* ctx.notify('halfway', 50, 100)
    yield* sleep(50)
    yield* ctx.notify('done', 100, 100)
    return 'Progress test completed'
  })

export const sampling = createMcpTool('test_sampling')
  .description("Asks the client's model to answer a prompt")
  .parameters(z.object({ prompt: z.string().describe('The prompt to send to the LLM') }))
  .requires({ sampling: true })
  .elicits({})
  .execute(function* (params, ctx) {
    const reply = yield* ctx.sample({ prompt: params.prompt, maxTokens: 100 })
    return `LLM response: ${reply.text}`
  })

export const elicitation = createMcpTool('test_elicitation')
  .description('Asks the user for a username and an email address')
  .parameters(z.object({ message: z.string().describe('The message to show the user') }))
  .elicits({ response: z.object({ username: z.string().describe("User's response"), email: z.string().describe("User's email address") }) })
  .execute(function* (params, ctx) {
    const answer = yield* ctx.elicit('response', { message: params.message })
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}`
  })

export const elicitationDefaults = createMcpTool('test_elicitation_sep1034_defaults')
  .description('Asks a form whose fields all have defaults (SEP-1034)')
  .elicits({
    form: z.object({
      name: z.string().default('John Doe'),
      age: z.int().default(30),
      score: z.number().default(95.5),
      status: z.enum(['active', 'inactive', 'pending']).default('active'),
      verified: z.boolean().default(true),
    }),
  })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('form', { message: 'Please review and update the form fields with defaults' })
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}`
  })

/** A 1×1 PNG, and a WAV of a few silent samples. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const SILENCE = Buffer.from([
  ...Buffer.from('RIFF'),
  44,
  0,
  0,
  0,
  ...Buffer.from('WAVEfmt '),
  16,
  0,
  0,
  0,
  1,
  0,
  1,
  0,
  0x40,
  0x1f,
  0,
  0,
  0x40,
  0x1f,
  0,
  0,
  1,
  0,
  8,
  0,
  ...Buffer.from('data'),
  8,
  0,
  0,
  0,
  128,
  128,
  128,
  128,
  128,
  128,
  128,
  128,
]).toString('base64')

export const imageContent = createMcpTool('test_image_content')
  .description('Returns an image')
  .elicits({})
  .execute(function* () {
    return withContent([{ type: 'image', data: PIXEL, mimeType: 'image/png' }])
  })

export const audioContent = createMcpTool('test_audio_content')
  .description('Returns audio')
  .elicits({})
  .execute(function* () {
    return withContent([{ type: 'audio', data: SILENCE, mimeType: 'audio/wav' }])
  })

export const embeddedResource = createMcpTool('test_embedded_resource')
  .description('Returns an embedded resource')
  .elicits({})
  .execute(function* () {
    return withContent([{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }])
  })

export const mixedContent = createMcpTool('test_multiple_content_types')
  .description('Returns text, an image and a resource')
  .elicits({})
  .execute(function* () {
    return withContent([
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PIXEL, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
    ])
  })

const titled = (value: string, title: string) => z.literal(value).meta({ title })

export const elicitationEnums = createMcpTool('test_elicitation_sep1330_enums')
  .description('Asks a form with each kind of choice (SEP-1330)')
  .elicits({
    form: z.object({
      untitledSingle: z.enum(['option1', 'option2', 'option3']),
      titledSingle: z.enum(['value1', 'value2', 'value3']).meta({
        oneOf: [
          { const: 'value1', title: 'First Option' },
          { const: 'value2', title: 'Second Option' },
          { const: 'value3', title: 'Third Option' },
        ],
      }),
      legacyEnum: z.enum(['opt1', 'opt2', 'opt3']).meta({ enumNames: ['Option One', 'Option Two', 'Option Three'] }),
      untitledMulti: z.array(z.enum(['option1', 'option2', 'option3'])),
      titledMulti: z.array(z.union([titled('value1', 'First Choice'), titled('value2', 'Second Choice'), titled('value3', 'Third Choice')])),
    }),
  })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('form', { message: 'Please select options from the enum fields' })
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}`
  })

// The Tasks extension's fixtures (the suite's tasks-* scenarios of 0.2.x): their names, arguments
// and how each ends are the suite's; whether a call becomes a task is each tool's `.taskSupport()`.

export const greet = createMcpTool('greet')
  .description('Greets someone, at once (never a task)')
  .parameters(z.object({ name: z.string() }))
  .execute(function* (params) {
    return `Hello, ${params.name}!`
  })

export const slowCompute = createMcpTool('slow_compute')
  .description('Works for the given seconds, then answers: a task for a client that speaks tasks')
  .parameters(z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }))
  .taskSupport('optional')
  .execute(function* (params) {
    yield* sleep(params.seconds * 1000)
    return `Computed ${params.label ?? 'result'} after ${params.seconds}s`
  })

export const failingJob = createMcpTool('failing_job')
  .description('Fails after about a second (a tool error); only as a task')
  .taskSupport('required')
  .execute(function* () {
    yield* sleep(1000)
    throw new Error('failing_job failed, as it always does')
  })

export const protocolErrorJob = createMcpTool('protocol_error_job')
  .description('Returns a result its own schema refuses: a server fault, which ends its task as failed')
  .returns(z.object({ ok: z.literal(true) }))
  .taskSupport('optional')
  .execute(function* () {
    yield* sleep(100)
    return { ok: false } as unknown as { ok: true }
  })

export const confirmDelete = createMcpTool('confirm_delete')
  .description('Asks for confirmation, then "deletes" the file')
  .parameters(z.object({ filename: z.string() }))
  .elicits({ confirm: z.object({ confirm: z.boolean() }) })
  .execute(function* (params, ctx) {
    const answer = yield* ctx.elicit('confirm', { message: `Delete ${params.filename}?` })
    return answer.action === 'accept' && answer.content.confirm ? `Deleted ${params.filename}` : `Kept ${params.filename}`
  })

// The diagnostic tools of the suite's server-stateless scenario (SEP-2575, 0.2.x).

export const missingCapability = createMcpTool('test_missing_capability')
  .description('Needs sampling, which the calling client must declare in its request')
  .requires({ sampling: true })
  .execute(function* (_params, ctx) {
    const reply = yield* ctx.sample({ prompt: 'Say hello', maxTokens: 20 })
    return reply.text
  })

export const loggingTool = createMcpTool('test_logging_tool')
  .description('Logs while it runs (sent only to a request that asks for a log level)')
  .execute(function* (_params, ctx) {
    yield* ctx.log('info', 'test_logging_tool ran')
    return 'Logged'
  })

export const streamingElicitation = createMcpTool('test_streaming_elicitation')
  .description('Asks a question: on 2026-07-28 an input_required result, never a request on the stream')
  .elicits({ answer: z.object({ text: z.string() }) })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('answer', { message: 'Say something' })
    return answer.action === 'accept' ? answer.content.text : answer.action
  })

// The input_required (SEP-2322) scenarios' tools. The suite's scenarios that name fixed input keys
// ("user_name") cannot find ours — a question's key is its place in the call (`elicit-user_name-1`)
// — nor ask two questions at once, roots, or a prompt's question: listed in conformance-next.test.ts.

export const inputRequiredElicitation = createMcpTool('test_input_required_result_elicitation')
  .description('Asks for a name, then greets')
  .elicits({ user_name: z.object({ name: z.string() }) })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('user_name', { message: 'What is your name?' })
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `No name (${answer.action})`
  })

export const inputRequiredSampling = createMcpTool('test_input_required_result_sampling')
  .description("Asks the client's model a question")
  .requires({ sampling: true })
  .execute(function* (_params, ctx) {
    const reply = yield* ctx.sample({ prompt: 'What is the capital of France?', maxTokens: 100 })
    return reply.text
  })

export const inputRequiredRequestState = createMcpTool('test_input_required_result_request_state')
  .description('Asks for a confirmation; the answer comes back with the requestState it was asked with')
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('confirm', { message: 'Please confirm' })
    return `state-ok: ${answer.action === 'accept' && answer.content.ok ? 'confirmed' : 'not confirmed'}`
  })

export const inputRequiredMultiRound = createMcpTool('test_input_required_result_multi_round')
  .description('Asks two questions, one per round')
  .elicits({ step1: z.object({ name: z.string() }), step2: z.object({ color: z.string() }) })
  .execute(function* (_params, ctx) {
    const name = yield* ctx.elicit('step1', { message: 'Step 1: What is your name?' })
    const color = yield* ctx.elicit('step2', { message: 'Step 2: What is your favorite color?' })
    return `${name.action === 'accept' ? name.content.name : '?'} likes ${color.action === 'accept' ? color.content.color : '?'}`
  })

export const inputRequiredTamperedState = createMcpTool('test_input_required_result_tampered_state')
  .description('Asks a question; an altered requestState is refused')
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('confirm', { message: 'Please confirm' })
    return answer.action
  })

export const inputRequiredCapabilities = createMcpTool('test_input_required_result_capabilities')
  .description('Asks only what a sampling-only client can answer: the model, never a form')
  .requires({ sampling: true })
  .execute(function* (_params, ctx) {
    const reply = yield* ctx.sample({ prompt: 'Name a color', maxTokens: 20 })
    return reply.text
  })

// SEP-2243's custom headers: a parameter the client also sends as an `Mcp-Param-Region` header.
export const customHeaders = createMcpTool('test_custom_headers')
  .description('Echoes a region the client sends in the body and as the Mcp-Param-Region header')
  .parameters(z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }))
  .execute(function* (params) {
    return `Region: ${params.region}`
  })

// SEP-1613 / SEP-2106: JSON Schema 2020-12 keywords in an inputSchema are listed as written. What
// zod does not write itself ($defs, composition, conditionals) is given with `.meta()`.
const address = z.object({ street: z.string().optional(), city: z.string().optional() })
export const jsonSchema2020 = createMcpTool('json_schema_2020_12_tool')
  .description('Takes a contact with a phone or an email: the schema says which, in JSON Schema 2020-12')
  .parameters(
    z
      .strictObject({
        name: z.string().optional(),
        address: address.optional().meta({ $ref: '#/$defs/address' }),
        contactMethod: z.enum(['phone', 'email']).optional(),
        phone: z.string().optional(),
        email: z.string().optional(),
      })
      .meta({
        $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // oxlint-disable-next-line unicorn/no-thenable -- JSON Schema's if/then/else keyword in a plain object, never awaited
        then: { required: ['phone'] },
        else: { required: ['email'] },
      }),
  )
  .execute(function* (params) {
    return `Contact: ${params.name ?? 'someone'} by ${params.contactMethod ?? 'any means'}`
  })

export const conformanceTools = [
  simpleText,
  imageContent,
  audioContent,
  embeddedResource,
  mixedContent,
  withLogging,
  errorHandling,
  withProgress,
  sampling,
  elicitation,
  elicitationDefaults,
  elicitationEnums,
  greet,
  slowCompute,
  failingJob,
  protocolErrorJob,
  confirmDelete,
  missingCapability,
  loggingTool,
  streamingElicitation,
  inputRequiredElicitation,
  inputRequiredSampling,
  inputRequiredRequestState,
  inputRequiredMultiRound,
  inputRequiredTamperedState,
  inputRequiredCapabilities,
  customHeaders,
  jsonSchema2020,
]
