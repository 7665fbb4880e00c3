/**
 * The split, as the bundler meets it: each module that imports the runtime is split for its
 * environment (`core/split.ts`: the client gets only the `onElicit` handlers); server-only code
 * a client module surely keeps fails at `file:line` (in the dev overlay too), what it keeps only
 * because it exports it is left for the bundle to decide — and once the client bundle is
 * written, no server-only code a tool or plugin file leads to may be in it (`core/client-leaks.ts`).
 */
import { clientLeaks, type LeakInputs } from './core/client-leaks.ts'
import { LEAK_HINT, leakMessage, splitModule } from './core/split.ts'
import { runtimeEntriesImported } from './missing-peer.ts'
import type { BridgePluginContext } from './plugin-context.ts'

/** What the split needs of the hook's own context (Vite's `this`). */
export interface SplitHookContext {
  environment: { config: { consumer: string } }
  resolve(source: string, importer: string, options: { skipSelf: boolean }): Promise<{ id: string } | null>
  error(error: { message: string; id: string; loc: { file: string; line: number; column: number } }): never
}

/** `transform` of a module that imports the runtime: the split for its environment, or null when there is nothing to cut. */
export async function splitForEnvironment(
  ctx: BridgePluginContext,
  hook: SplitHookContext,
  code: string,
  id: string,
): Promise<{ code: string; map: NonNullable<ReturnType<typeof splitModule>>['map'] } | null> {
  const target = hook.environment.config.consumer === 'client' ? 'client' : 'server'
  // A runtime entry whose optional peer is missing: refused here, before Node links it and keeps
  // the failure for the life of the process (see missing-peer.ts).
  if (target === 'server' && !ctx.view) {
    for (const entry of runtimeEntriesImported(code)) {
      const resolved = await hook.resolve(entry, id, { skipSelf: true })
      if (resolved && !resolved.id.startsWith('\0')) ctx.guardPeers(entry, resolved.id.replace(/[?#].*$/, ''))
    }
  }
  // In a build the parse is shared (with discovery, and between the client and server builds);
  // the split asks for it only when the file can hold something to cut.
  const parsed = ctx.config.command === 'build' ? () => ctx.parseCache.get(id.replace(/[?#].*$/, ''), code) : undefined
  if (target === 'client') {
    ctx.bridgeModules.add(id)
    ctx.exportOnlyLeaks.delete(id)
  }
  const out = splitModule(code, id, target, parsed)
  if (!out) return null
  if (target === 'client') {
    // Server-only code the client surely keeps fails here: at file:line, in the dev overlay too.
    const sure = out.leaks.filter((leak) => !leak.exportOnly)
    if (sure.length) {
      const file = ctx.displayPath(id)
      const message = `mcp-bridge: server-only code would reach the browser.\n${sure.map((leak) => leakMessage(file, leak)).join('\n')}\n${LEAK_HINT}`
      hook.error({ message, id, loc: { file: id, line: sure[0]!.at.line, column: sure[0]!.at.column - 1 } })
    }
    if (out.leaks.length) ctx.exportOnlyLeaks.set(id, out.leaks)
  }
  return { code: out.code, map: out.map }
}

/** After the client bundle is written: what server-only code reached a client chunk (empty: none). */
export function leaksInBundle(ctx: BridgePluginContext, bundle: LeakInputs['bundle'], importersOf: LeakInputs['importersOf']): string[] {
  return clientLeaks({ bundle, importersOf, bridgeModules: ctx.bridgeModules, exportOnly: ctx.exportOnlyLeaks, display: (id) => ctx.displayPath(id) })
}
