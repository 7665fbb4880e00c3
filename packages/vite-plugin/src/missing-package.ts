/**
 * An app server that cannot load because a package it imports is not installed — most often an
 * optional peer of the runtime (`@modelcontextprotocol/server` for `createMcpServer`, `libsql` or
 * `ioredis` for a store): what to install, said where the failure is reported.
 */

/** The package a "Cannot find package/module" error names (its root name), if it is one. */
export function missingPackage(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error)
  const named = /Cannot find (?:package|module) '((?:@[^/'\s]+\/)?[^/'\s]+)/.exec(message)?.[1]
  // A relative or absolute path is the app's own file, not a package to install.
  return named && !/^[./]/.test(named) ? named : undefined
}

/** The sentence to add to the error: install it, and restart (Node keeps a failed import until then). */
export function installHint(error: unknown): string {
  const name = missingPackage(error)
  return name ? ` Install it: npm install ${name} — then restart the dev server (Node keeps a failed import until the process restarts).` : ''
}
