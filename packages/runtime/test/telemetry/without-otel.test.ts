/**
 * Without `@opentelemetry/api` installed, nothing changes and nothing of OpenTelemetry is loaded:
 * the built package runs a chat turn with a tool call in a Node whose module resolution cannot
 * find any `@opentelemetry/*` package (a resolve hook refuses them, and fails the run if anything
 * resolves into one).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist')
const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-no-otel-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The resolve hook: refuses @opentelemetry/* as if not installed, and notes every such request (and anything resolving into one). */
const hook = (notes: string) => `
import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/')) {
    appendFileSync(${JSON.stringify(notes)}, 'refused ' + specifier + '\\n')
    throw Object.assign(new Error('Cannot find package ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' })
  }
  const resolved = await next(specifier, context)
  if (resolved.url.includes('/@opentelemetry/')) appendFileSync(${JSON.stringify(notes)}, 'loaded ' + resolved.url + '\\n')
  return resolved
}`

const script = (notes: string) => `
import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook(notes))}))
const { createChatHandler } = await import(${JSON.stringify(pathToFileURL(join(dist, 'server.js')).href)})
const { createScriptedModel } = await import(${JSON.stringify(pathToFileURL(join(dist, 'testing.js')).href)})
const { createMcpTool } = await import(${JSON.stringify(pathToFileURL(join(dist, 'index.js')).href)})
const { readChatEvents } = await import(${JSON.stringify(pathToFileURL(join(dist, 'client.js')).href)})
const hello = createMcpTool('hello').elicits({}).execute(function* (_p, ctx) { return yield* ctx.step('greet', () => Promise.resolve('hi')) })
const model = createScriptedModel({ onUserMessage: [{ match: /./, reply: { toolCalls: [{ name: 'hello', input: {} }] } }], onToolResult: () => 'Done.' })
const handler = createChatHandler({ tools: [hello], model })
const response = await handler(new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] }) }))
const types = []
for await (const e of readChatEvents(response.body)) types.push(e.type === 'tool_result' ? 'tool_result:' + JSON.stringify(e.result) : e.type)
await handler.close()
console.log(JSON.stringify(types))
`

describe('without @opentelemetry/api', () => {
  it('a turn with a tool call runs as ever, and no OpenTelemetry module is loaded', async () => {
    const file = join(dir, 'run.mjs')
    const notes = join(dir, 'notes.txt')
    writeFileSync(notes, '')
    writeFileSync(file, script(notes))
    const out = await new Promise<string>((done, fail) =>
      execFile(process.execPath, [file], { cwd: dir, timeout: 60_000 }, (error, stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout))),
    )
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual(['tool_call', 'tool_result:"hi"', 'text_delta', 'conversation_state'])
    // It was looked for once (the handler asked for it), found missing, and nothing of it loaded.
    expect(readFileSync(notes, 'utf8').trim().split('\n')).toEqual(['refused @opentelemetry/api'])
  }, 90_000)
})
