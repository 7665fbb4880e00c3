/**
 * The peer guard (issue 32 item 1): a runtime entry whose peer is missing is refused while its
 * import resolves, naming what to install — and passes once the package is there, in the same
 * process (Node never saw the failed import, so there is nothing cached to restart away).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createPeerGuard, OptionalPeerMissingError, peersImportedBy, runtimeEntriesImported } from '../src/missing-peer.ts'

const scratch = mkdtempSync(join(tmpdir(), 'mcp-bridge-peer-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A package `lib` with optional peers `sdk`, `unused` and `@scope/pkg`; its entry reaches `sdk` through two of its own files. */
function fixture(): { entry: string; other: string; install: (name: string) => void } {
  const lib = join(scratch, 'app/node_modules/lib')
  mkdirSync(join(lib, 'dist/deep'), { recursive: true })
  const optional = { optional: true }
  writeFileSync(
    join(lib, 'package.json'),
    // `core` is a required peer: npm installs it with the package, so it is not the guard's.
    JSON.stringify({
      name: 'lib',
      type: 'module',
      peerDependencies: { core: '*', sdk: '*', unused: '*', '@scope/pkg': '*' },
      peerDependenciesMeta: { sdk: optional, unused: optional, '@scope/pkg': optional },
    }),
  )
  writeFileSync(join(lib, 'dist/entry.js'), "export * from './deep/server.js'\nimport './plain.js'\nimport 'core'\nexport { x } from '@scope/pkg/sub'\n")
  writeFileSync(join(lib, 'dist/deep/server.js'), "import { McpServer } from 'sdk'\nimport { readFileSync } from 'node:fs'\nexport const s = () => import('unused')\n")
  writeFileSync(join(lib, 'dist/plain.js'), 'export const plain = 1\n')
  writeFileSync(join(lib, 'dist/other.js'), "export { plain } from './plain.js'\n")
  return {
    entry: join(lib, 'dist/entry.js'),
    other: join(lib, 'dist/other.js'),
    install(name) {
      mkdirSync(join(scratch, 'app/node_modules', name), { recursive: true })
      writeFileSync(join(scratch, 'app/node_modules', name, 'package.json'), JSON.stringify({ name }))
    },
  }
}

describe('a runtime entry whose optional peer is not installed', () => {
  const { entry, other, install } = fixture()

  it("finds the optional peers a file links statically, through the package's own files (not a dynamic import, a builtin or a required peer)", () => {
    expect(peersImportedBy(entry)).toEqual(['@scope/pkg', 'sdk'])
    expect(peersImportedBy(other)).toEqual([])
  })

  it('is refused naming what to install, and passes once it is installed — the same guard, no restart', () => {
    const guard = createPeerGuard()
    let refused: unknown
    try {
      guard('lib/entry', entry)
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(OptionalPeerMissingError)
    expect(refused).toMatchObject({ code: 'OPTIONAL_PEER_MISSING', missing: ['@scope/pkg', 'sdk'] })
    expect((refused as Error).message).toBe(
      'lib/entry needs @scope/pkg and sdk, which are not installed. Install them: npm install @scope/pkg sdk (a running dev server picks them up at its next request: no restart).',
    )
    install('sdk')
    expect(() => guard('lib/entry', entry)).toThrow('lib/entry needs @scope/pkg, which is not installed. Install it: npm install @scope/pkg')
    install('@scope/pkg')
    expect(() => guard('lib/entry', entry)).not.toThrow()
    expect(() => guard('lib/other', other)).not.toThrow()
  })

  it('an entry that links no missing peer passes while another peer of its package is missing', () => {
    const guard = createPeerGuard()
    expect(peersImportedBy(other)).toEqual([])
    // `unused` is never installed here; `other` does not link it.
    expect(() => guard('lib/other', other)).not.toThrow()
  })

  it('reads the runtime entries a module imports, not type-only imports, other packages or a mention in a string', () => {
    const code = [
      "import { createMcpServer } from '@mcp-bridge/runtime/mcp'",
      'import {',
      '  createAppServer,',
      "} from '@mcp-bridge/runtime/server'",
      "export { createMcpTool } from '@mcp-bridge/runtime';import '@mcp-bridge/runtime/ai-sdk'",
      "import { z } from 'zod'",
      "import type { McpServerOptions } from '@mcp-bridge/runtime/mcp'",
      "export type { CallStore } from '@mcp-bridge/runtime/testing'",
      "const text = 'see @mcp-bridge/runtime/testing'",
    ].join('\n')
    expect(runtimeEntriesImported(code)).toEqual(['@mcp-bridge/runtime/mcp', '@mcp-bridge/runtime/server', '@mcp-bridge/runtime', '@mcp-bridge/runtime/ai-sdk'])
  })

  it("the runtime's MCP entry links the MCP SDK; its main entry does not", () => {
    const runtime = createRequire(import.meta.url)
    const mcp = runtime.resolve('@mcp-bridge/runtime/mcp')
    expect(peersImportedBy(mcp)).toContain('@modelcontextprotocol/server')
    expect(peersImportedBy(runtime.resolve('@mcp-bridge/runtime'))).not.toContain('@modelcontextprotocol/server')
  })
})
