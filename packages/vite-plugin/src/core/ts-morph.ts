/**
 * ts-morph, loaded when discovery first touches it. Importing it costs ~0.4 s (it carries the
 * whole TypeScript compiler), and most builds never need it: when no source changed since the
 * last build, the plugin reuses that generation, and the split parses with oxc. The plugin
 * module itself is often evaluated by Vite's config loader, whose module runner is closed
 * once the config is read, so a later dynamic `import()` from it would fail; ts-morph is
 * CommonJS, and a `require` made here reaches Node directly.
 *
 * `Node` and `SyntaxKind` are stand-ins with the real types, so discovery reads as usual.
 */
import { createRequire } from 'node:module'
import type * as TsMorph from 'ts-morph'

let loaded: typeof TsMorph | undefined

export function tsMorph(): typeof TsMorph {
  return (loaded ??= createRequire(import.meta.url)('ts-morph') as typeof TsMorph)
}

function lazy<T extends object>(pick: (m: typeof TsMorph) => T): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const real = pick(tsMorph())
      const value: unknown = Reflect.get(real, key)
      return typeof value === 'function' ? value.bind(real) : value
    },
  })
}

export const Node: typeof TsMorph.Node = lazy((m) => m.Node)
export const SyntaxKind: typeof TsMorph.SyntaxKind = lazy((m) => m.SyntaxKind)
export type Node = TsMorph.Node
