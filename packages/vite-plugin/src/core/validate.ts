/**
 * Build-time validation from the real zod objects: each module with tools is loaded, and what
 * the runtime reports — the `ElicitationSchemaError` thrown at `.elicits(...)`, the warnings on
 * `tool.warnings` — is mapped back to the source: the offending property inside `.elicits({...})`,
 * or the key, or the `.elicits` call when the schema is composed elsewhere.
 */
import { join } from 'node:path'
import type { AnyMcpTool, ElicitViolation } from '@mcp-bridge/runtime'
import { formatViolation } from '@mcp-bridge/runtime/internal'
import type { Diagnostic, SourceLocation } from './diagnostics.ts'
import type { DiscoveredTool, FileDiscovery } from './discover.ts'
import type { ModuleLoader } from './load-modules.ts'

export interface LoadedTool {
  file: string
  discovered: DiscoveredTool
  tool: AnyMcpTool
}

export interface ValidationResult {
  tools: LoadedTool[]
  diagnostics: Diagnostic[]
}

export async function loadAndValidate(root: string, discoveries: readonly FileDiscovery[], loader: ModuleLoader): Promise<ValidationResult> {
  const byName = new Map<string, DiscoveredTool>()
  for (const d of discoveries) for (const t of d.tools) byName.set(t.name, t)
  const tools: LoadedTool[] = []
  const diagnostics = new Map<string, Diagnostic>()
  const add = (d: Diagnostic) => diagnostics.set(`${d.file}:${d.line}:${d.column}:${d.message}`, d)

  // Import in parallel (transforms overlap with I/O), then read the results in file order so the
  // diagnostics never depend on which import finished first.
  // An unexported tool cannot be reached (discovery reported it); its module is still loaded
  // when it holds other tools.
  const withTools = discoveries.filter((d) => d.tools.some((t) => t.exported))
  const loaded = await mapLimit(withTools, IMPORT_CONCURRENCY, (d) =>
    loader.import(join(root, d.file)).then(
      (exports) => ({ ok: true as const, exports }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  )
  for (const [index, discovery] of withTools.entries()) {
    const outcome = loaded[index]!
    let exports: Record<string, unknown>
    if (outcome.ok) exports = outcome.exports
    else {
      const error = outcome.error
      const violations = schemaViolations(error)
      // An invalid literal tool name is already reported by discovery, at the name itself.
      if ((error as { code?: unknown })?.code === 'INVALID_TOOL_NAME') continue
      if (violations) {
        for (const v of violations) add(toDiagnostic(v, byName, discovery.tools[0]!.location))
      } else {
        // Paths relative to the project, as everywhere in diagnostics (and stable across machines).
        const message = (error instanceof Error ? error.message.split('\n')[0]! : String(error)).replaceAll(`${root}/`, '')
        add({ ...discovery.tools[0]!.location, line: 1, column: 1, severity: 'error', code: 'MODULE_LOAD_FAILED', message: `Loading this module failed, so its tools could not be checked: ${message}` })
      }
      continue
    }
    for (const discovered of discovery.tools) {
      if (!discovered.exported) continue
      const value = exports[discovered.exportName]
      if (!isToolLike(value)) {
        add({ ...discovered.location, severity: 'error', code: 'MODULE_LOAD_FAILED', message: `The export ${discovered.exportName} is not a finished tool; end the chain with .execute(...) or .handoff(...).` })
        continue
      }
      tools.push({ file: discovery.file, discovered, tool: value })
      for (const warning of value.warnings) add(toDiagnostic(warning, byName, discovered.location))
    }
  }
  return { tools, diagnostics: [...diagnostics.values()] }
}

const IMPORT_CONCURRENCY = 32

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
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
