/**
 * Build-time validation from the real zod objects: each module with tools is loaded, and what
 * the runtime reports — the `ElicitationSchemaError` thrown at `.elicits(...)`, the warnings on
 * `tool.warnings` — is mapped back to the source: the offending property inside `.elicits({...})`,
 * or the key, or the `.elicits` call when the schema is composed elsewhere.
 */
import { join } from 'node:path'
import type { AnyMcpTool, ElicitViolation } from '@mcp-bridge/runtime'
import { formatViolation } from '@mcp-bridge/runtime/build'
import type { Diagnostic, SourceLocation } from './diagnostics.ts'
import type { DiscoveredTool, FileDiscovery } from './discover.ts'
import type { ModuleLoader } from './load-modules.ts'
import { ModuleLoaderUnavailableError } from './errors.ts'
import type { ModuleCache, ModuleValidation, ToolFacts } from './module-cache.ts'

export interface LoadedTool {
  file: string
  discovered: DiscoveredTool
  facts: ToolFacts
}

export interface ValidationResult {
  tools: LoadedTool[]
  diagnostics: Diagnostic[]
  /** Files the kept results depend on (their modules did not run): inputs of this generation too. */
  keptInputs: string[]
}

/**
 * Load each module with exported tools (in parallel; `cache` answers for modules whose code and
 * imports did not change, so they do not run) and turn what the runtime reports into facts and
 * diagnostics at their place in the source.
 */
export async function loadAndValidate(root: string, discoveries: readonly FileDiscovery[], loader: ModuleLoader, cache?: ModuleCache): Promise<ValidationResult> {
  const byName = new Map<string, DiscoveredTool>()
  for (const d of discoveries) for (const t of d.tools) byName.set(t.name, t)
  // An unexported tool cannot be reached (discovery reported it); its module is still loaded
  // when it holds other tools.
  const withTools = discoveries.filter((d) => d.tools.some((t) => t.exported))
  const kept = withTools.map((d) => cache?.get(d.file))
  const toRun = withTools.filter((_, i) => !kept[i])
  // The loader may load them together (one bundle); then import in parallel (transforms overlap
  // with I/O), and read the results in file order so the diagnostics never depend on which
  // import finished first.
  if (toRun.length) await loader.prepare?.(toRun.map((d) => join(root, d.file)))
  const loaded = await mapLimit(toRun, IMPORT_CONCURRENCY, (d) =>
    loader.import(join(root, d.file)).then(
      (exports) => ({ ok: true as const, exports }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  )
  const tools: LoadedTool[] = []
  const diagnostics = new Map<string, Diagnostic>()
  const keptInputs: string[] = []
  let ran = 0
  for (const [index, discovery] of withTools.entries()) {
    let result: ModuleValidation
    const hit = kept[index]
    if (hit) {
      result = hit.result
      keptInputs.push(...hit.inputs)
    } else {
      result = validateModule(root, discovery, loaded[ran++]!, byName)
      cache?.set(discovery.file, loader.dependencies(join(root, discovery.file)), result)
    }
    for (const d of result.diagnostics) diagnostics.set(`${d.file}:${d.line}:${d.column}:${d.message}`, d)
    for (const t of result.tools) {
      const discovered = discovery.tools.find((x) => x.exportName === t.exportName)
      if (discovered) tools.push({ file: discovery.file, discovered, facts: t.facts })
    }
  }
  return { tools, diagnostics: [...diagnostics.values()], keptInputs }
}

type Outcome = { ok: true; exports: Record<string, unknown> } | { ok: false; error: unknown }

/** One module's tools and problems, from its exports (or from why it could not be loaded). */
function validateModule(root: string, discovery: FileDiscovery, outcome: Outcome, byName: ReadonlyMap<string, DiscoveredTool>): ModuleValidation {
  const result: ModuleValidation = { tools: [], diagnostics: [] }
  const add = (d: Diagnostic) => result.diagnostics.push(d)
  if (!outcome.ok) {
    const error = outcome.error
    if (error instanceof ModuleLoaderUnavailableError) throw error
    const violations = schemaViolations(error)
    // An invalid literal tool name is already reported by discovery, at the name itself.
    if ((error as { code?: unknown })?.code === 'INVALID_TOOL_NAME') return result
    if (violations) {
      for (const v of violations) add(toDiagnostic(v, byName, discovery.tools[0]!.location))
    } else {
      // Paths relative to the project, as everywhere in diagnostics (and stable across machines).
      const message = (error instanceof Error ? error.message.split('\n')[0]! : String(error)).replaceAll(`${root}/`, '')
      add({
        ...discovery.tools[0]!.location,
        line: 1,
        column: 1,
        severity: 'error',
        code: 'MODULE_LOAD_FAILED',
        message: `Loading this module failed, so its tools could not be checked: ${message}`,
      })
    }
    return result
  }
  for (const discovered of discovery.tools) {
    if (!discovered.exported) continue
    const value = outcome.exports[discovered.exportName]
    if (!isToolLike(value)) {
      add({
        ...discovered.location,
        severity: 'error',
        code: 'MODULE_LOAD_FAILED',
        message: `The export ${discovered.exportName} is not a finished tool; end the chain with .execute(...) or .handoff(...).`,
      })
      continue
    }
    result.tools.push({ exportName: discovered.exportName, facts: factsOf(value) })
    for (const warning of value.warnings) add(toDiagnostic(warning, byName, discovered.location))
  }
  return result
}

/** The manifest's view of a tool (sorted keys, plain JSON). */
function factsOf(tool: AnyMcpTool): ToolFacts {
  return {
    name: tool.name,
    title: tool.title ?? null,
    description: tool.description ?? null,
    annotations: tool.annotations ? { ...tool.annotations } : null,
    icons: tool.icons ? [...tool.icons] : null,
    parameters: tool.jsonSchema.parameters,
    output: tool.jsonSchema.output ?? null,
    elicits: Object.fromEntries(
      Object.values(tool.compiled)
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map((key) => [key.key, { schema: key.wire, hasContext: key.context !== undefined }]),
    ),
    requirements: { ...tool.requirements },
    keys: Object.keys(tool.compiled),
  }
}

const IMPORT_CONCURRENCY = 32

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = Array.from({ length: items.length })
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await fn(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/** The violations of an `ElicitationSchemaError` from any copy of the runtime (matched by code). */
/** A schema error's violations, its warnings included (an error must not hide them from the count). */
function schemaViolations(error: unknown): ElicitViolation[] | undefined {
  const e = error as { code?: unknown; violations?: unknown; warnings?: unknown }
  if (!e || e.code !== 'ELICITATION_SCHEMA_INVALID' || !Array.isArray(e.violations)) return undefined
  return [...(e.violations as ElicitViolation[]), ...(Array.isArray(e.warnings) ? (e.warnings as ElicitViolation[]) : [])]
}

function isToolLike(value: unknown): value is AnyMcpTool {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'mcp-tool'
}

function toDiagnostic(v: ElicitViolation, tools: ReadonlyMap<string, DiscoveredTool>, fallback: SourceLocation): Diagnostic {
  const tool = tools.get(v.tool)
  const key = tool?.elicits?.find((k) => k.key === v.key)
  const property = v.part === 'response' && v.property !== undefined ? key?.properties?.find((p) => p.name === v.property) : undefined
  const where = property?.location ?? key?.location ?? tool?.elicitsLocation ?? tool?.location ?? fallback
  return {
    ...where,
    severity: v.severity,
    code: 'SCHEMA',
    message: `${v.tool} › ${formatViolation(v)} [${v.rule}]`,
  }
}
