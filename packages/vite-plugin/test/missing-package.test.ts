/** What the dev server adds when the app server cannot load for a package that is not installed (issue 32 item 1). */
import { describe, expect, it } from 'vitest'
import { installHint, missingPackage } from '../src/missing-package.ts'

describe('a package the app server imports is not installed', () => {
  it("names the package to install, scoped or not, from Node's and Vite's wording", () => {
    const node = Object.assign(new Error("Cannot find package '@modelcontextprotocol/server' imported from /app/node_modules/@mcp-bridge/runtime/dist/mcp/create-mcp-server.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    })
    expect(missingPackage(node)).toBe('@modelcontextprotocol/server')
    expect(missingPackage(new Error("Cannot find module 'libsql/package.json'"))).toBe('libsql')
    expect(installHint(node)).toBe(' Install it: npm install @modelcontextprotocol/server — then restart the dev server (Node keeps a failed import until the process restarts).')
  })

  it("says nothing for the app's own missing file or another failure", () => {
    expect(missingPackage(new Error("Cannot find module './tools/missing.ts' imported from /app/src/server/app.ts"))).toBeUndefined()
    expect(installHint(new Error('boom'))).toBe('')
  })
})
