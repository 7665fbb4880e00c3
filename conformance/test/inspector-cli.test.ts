/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector`, which needs Node ≥ 22.19: run as the
 * conformance suite is) against the conformance app over Streamable HTTP, as a developer would
 * poke at a server: it lists the tools, prompts, resources and templates, calls a tool, gets a
 * prompt and reads a resource — five rounds of it, each a new session that is never DELETEd, so a
 * client that behaves like the Inspector is never refused (429) for the sessions it left behind.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConformanceServer } from '../server.ts'
import { cached, node22 } from './support/node22.ts'

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0'
const LAUNCHER = 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js'

let server: Awaited<ReturnType<typeof startConformanceServer>>
let node: string
let launcher: string

beforeAll(async () => {
  node = node22()
  launcher = join(cached('inspector', INSPECTOR, LAUNCHER), LAUNCHER)
  server = await startConformanceServer()
}, 360_000)

afterAll(async () => {
  await server?.close()
})

/** One CLI run: the method and its options; resolves with the JSON it printed. */
function inspect(method: string, ...options: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) =>
    execFile(node, [launcher, '--cli', server.url, '--method', method, ...options], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`inspector --cli --method ${method} failed: ${error.message}\n${stdout}\n${stderr}`))
      try {
        resolve(JSON.parse(stdout) as Record<string, unknown>)
      } catch {
        reject(new Error(`inspector --cli --method ${method} printed no JSON:\n${stdout}\n${stderr}`))
      }
    }),
  )
}

const names = (list: unknown, key = 'name') => (list as Array<Record<string, string>>).map((item) => item[key])

describe('the MCP Inspector CLI', () => {
  it('lists, calls, gets and reads, five rounds of new sessions in a row, never refused', async () => {
    for (let round = 0; round < 5; round++) {
      expect(names((await inspect('tools/list')).tools)).toContain('test_simple_text')
      expect(names((await inspect('prompts/list')).prompts)).toEqual([
        'test_simple_prompt',
        'test_prompt_with_arguments',
        'test_prompt_with_embedded_resource',
        'test_prompt_with_image',
      ])
      expect(names((await inspect('resources/list')).resources, 'uri')).toEqual(['test://static-text', 'test://static-binary', 'test://watched-resource'])
      expect(names((await inspect('resources/templates/list')).resourceTemplates, 'uriTemplate')).toEqual(['test://template/{id}/data'])
    }
    expect(await inspect('tools/call', '--tool-name', 'test_simple_text')).toMatchObject({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] })
    expect(await inspect('prompts/get', '--prompt-name', 'test_prompt_with_arguments', '--prompt-args', 'arg1=hello', 'arg2=world')).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } }],
    })
    expect(await inspect('resources/read', '--uri', 'test://template/42/data')).toMatchObject({
      contents: [{ uri: 'test://template/42/data', mimeType: 'application/json', text: JSON.stringify({ id: '42', templateTest: true, data: 'Data for ID: 42' }) }],
    })
  }, 240_000)
})
