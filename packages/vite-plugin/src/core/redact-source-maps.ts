/**
 * A source map carries a copy of each source (`sourcesContent`), and a published `.js.map`
 * shows it to anyone. The bundler takes that copy from the bottom of the map chain: the file as
 * it was loaded, before any plugin transformed it. The split's own map holds a redacted copy,
 * but when another plugin transformed a tool file first (a `pre` plugin, a banner, a coverage
 * instrumenter), the whole original is what reaches the chunk's map. So the finished map is
 * redacted again, each copy cut exactly as the split cuts the file itself.
 */
import { redactedSource, type SplitTarget } from './split.ts'

export interface ChunkSourceMap {
  sources: string[]
  sourcesContent?: (string | null)[]
}

/** The part of a Rolldown output bundle this reads: chunks with their maps, and `.map` assets. */
type OutputBundle = Record<string, { type: 'chunk'; code: string; map: ChunkSourceMap | null } | { type: 'asset'; fileName: string; source: string | Uint8Array }>

/** A map inlined into a chunk (`build.sourcemap: 'inline'`), already in its code by now. */
const INLINE_MAP = /(\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,)([A-Za-z0-9+/=]+)/g

/**
 * Redacts every source map of a finished bundle: each chunk's `map` and the `.map` asset the
 * bundler has already serialised from it (the file that is written).
 */
export function redactBundleSourceMaps(bundle: OutputBundle, target: SplitTarget): void {
  for (const output of Object.values(bundle)) {
    if (output.type === 'chunk') {
      if (output.map) redactSourceMap(output.map, target)
      if (output.code.includes('sourceMappingURL=data:')) {
        output.code = output.code.replace(INLINE_MAP, (all, prefix: string, base64: string) => {
          const redacted = redactSerialised(Buffer.from(base64, 'base64').toString('utf8'), target)
          return redacted === undefined ? all : prefix + Buffer.from(redacted, 'utf8').toString('base64')
        })
      }
      continue
    }
    if (!output.fileName.endsWith('.map')) continue
    const redacted = redactSerialised(typeof output.source === 'string' ? output.source : new TextDecoder().decode(output.source), target)
    if (redacted !== undefined) output.source = redacted
  }
}

/** A serialised map, redacted; `undefined` when it needed nothing. */
function redactSerialised(text: string, target: SplitTarget): string | undefined {
  if (!text.includes('sourcesContent')) return undefined
  const map = JSON.parse(text) as ChunkSourceMap
  return redactSourceMap(map, target) > 0 ? JSON.stringify(map) : undefined
}

/** Redacts, in place, every copy in `map` that holds code the split removes from `target`. */
export function redactSourceMap(map: ChunkSourceMap, target: SplitTarget): number {
  let redacted = 0
  map.sourcesContent?.forEach((content, i) => {
    if (content == null) return
    let safe: string | null
    try {
      safe = redactedSource(content, map.sources[i] ?? 'source.tsx', target)
    } catch {
      // A copy the parser cannot read is dropped rather than shipped: it may hold a tool body.
      safe = null
    }
    if (safe === content) return
    map.sourcesContent![i] = safe
    redacted++
  })
  return redacted
}
