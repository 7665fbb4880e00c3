/**
 * `mcp-bridge check | generate`: the same core as the Vite plugin, for CI and scripts, with no
 * dev server. Exit codes: 0 clean, 1 any error (including generated files that are stale
 * against the sources), 2 usage errors.
 */
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { formatDiagnostic, sortDiagnostics, type Diagnostic } from './core/diagnostics.ts'
import { discoverProject } from './core/discover.ts'
import { toolSourceFiles } from './core/source-files.ts'
import { typeDiagnostics } from './core/type-check.ts'
import { McpBridgeGenerator } from './core/generator.ts'
import { ModuleCache } from './core/module-cache.ts'
import { createBundledModuleLoader } from './core/bundle-loader.ts'
import { fingerprint, readCached, readCachedTypes, writeCached, writeCachedTypes } from './core/build-cache.ts'
import { projectSetup } from './core/project-options.ts'
import { parseTimeout } from './cli-timeout.ts'

const USAGE = `Usage: mcp-bridge <check|generate> [options]

  check      validate every tool and fail if generated files are stale (for CI)
  generate   write src/mcp-bridge/{server.gen.ts, client.gen.ts, mcp-tools.json}

Options:
  --root DIR          project root (default: the current directory)
  --include GLOB      files to scan (repeatable; default: src/**/*.{ts,tsx})
  --exclude GLOB      files to skip (repeatable)
  --out-dir DIR       where generated files go (default: src/mcp-bridge)
  --manifest FILE     manifest file name (default: mcp-tools.json)
  --json              print machine-readable diagnostics
  --no-cache          run every tool module even when nothing changed since the last
                      clean run (its result is kept in Vite's cache directory)
  --no-types          check: skip the type-aware pass (TypeScript's checker over the
                      tool and plugin files: handler answers and ctx.elicit context props)
  --timeout SECONDS   stop and fail if the run takes longer (default 300); it runs
                      the project's tool modules, and one may loop forever at import
  -h, --help          show this help

Exit codes: 0 no errors, 1 errors found (or the run did not finish), 2 usage error.
check and generate execute the project's tool modules (and what they import), as the app does.`

export interface CliIo {
  out(line: string): void
  err(line: string): void
  /** Told before each tool module is run. */
  loading?(file: string): void
}

const consoleIo: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }

export async function main(argv: readonly string[], io: CliIo = consoleIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        root: { type: 'string' },
        include: { type: 'string', multiple: true },
        exclude: { type: 'string', multiple: true },
        'out-dir': { type: 'string' },
        manifest: { type: 'string' },
        json: { type: 'boolean', default: false },
        'no-cache': { type: 'boolean', default: false },
        'no-types': { type: 'boolean', default: false },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    io.err(`mcp-bridge: ${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.out(USAGE)
    return 0
  }
  const command = positionals[0]
  if (positionals.length !== 1 || (command !== 'check' && command !== 'generate')) {
    io.err(`mcp-bridge: expected one command, check or generate (got ${positionals.length ? positionals.join(' ') : 'none'})\n\n${USAGE}`)
    return 2
  }
  const root = resolve(values.root ?? process.cwd())
  const rootProblem = directoryProblem(root)
  if (rootProblem) {
    io.err(`mcp-bridge: --root ${values.root ?? root}: ${rootProblem}`)
    return 2
  }
  if (values.timeout !== undefined && parseTimeout(values.timeout) === undefined) {
    io.err(`mcp-bridge: --timeout takes a whole number of seconds from 1 to 86400 (got "${values.timeout}")`)
    return 2
  }
  let setup
  try {
    setup = await projectSetup(root, { include: values.include, exclude: values.exclude, outDir: values['out-dir'], manifest: values.manifest })
  } catch (error) {
    io.err(`mcp-bridge: ${(error as Error).message}`)
    return 2
  }
  const { options, cacheDir } = setup

  // Nothing changed since the last clean run (sources, options, lockfile, versions, and the
  // generated files on disk are the ones it wrote): its result stands, and no module runs.
  const print = await fingerprint(options)
  const cached = values['no-cache'] ? undefined : readCached(cacheDir, print)
  let result
  let written: string[] = []
  const diagnostics: Diagnostic[] = []
  if (cached) {
    result = cached
    diagnostics.push(...cached.diagnostics)
  } else {
    const loader = createBundledModuleLoader(root, { ...(io.loading && { onImport: io.loading }) })
    try {
      const generator = new McpBridgeGenerator(options, loader, undefined, values['no-cache'] ? undefined : ModuleCache.load(cacheDir, root))
      result = await generator.generate()
      diagnostics.push(...result.diagnostics)
      // Stale outputs matter once the sources are clean: until then `generate` would refuse anyway.
      if (command === 'check' && !diagnostics.some((d) => d.severity === 'error')) diagnostics.push(...generator.stale(result))
      else if (!diagnostics.some((d) => d.severity === 'error')) written = generator.write(result)
      if (!diagnostics.some((d) => d.severity === 'error')) writeCached(cacheDir, print, result)
    } finally {
      await loader.close()
    }
  }
  // The type-aware pass (check only): what the types know that the build cannot see.
  // Kept like a generation: an unchanged tree with the cache restored does not load the checker.
  if (command === 'check' && !values['no-types']) {
    let types = values['no-cache'] ? undefined : readCachedTypes(cacheDir, print)
    if (!types) {
      const checked = await typeDiagnostics(options.root, discoverProject(options.root, await toolSourceFiles(options)))
      // Not kept while the checker is missing: installing it is not a change of the app's sources.
      if (!checked.diagnostics.some((d) => d.code === 'TYPES_UNAVAILABLE')) writeCachedTypes(cacheDir, print, checked.diagnostics, checked.inputs)
      types = checked.diagnostics
    }
    diagnostics.splice(0, diagnostics.length, ...sortDiagnostics([...diagnostics, ...types]))
  }
  const errors = diagnostics.filter((d) => d.severity === 'error').length
  const warnings = diagnostics.length - errors
  if (values.json) {
    io.out(
      JSON.stringify(
        { ok: errors === 0, command, tools: result.toolCount, found: result.found ?? result.toolCount, errors, warnings, diagnostics, written, cached: cached !== undefined },
        null,
        2,
      ),
    )
  } else {
    for (const d of diagnostics) io.out(formatDiagnostic(d))
    const verb =
      command === 'check'
        ? 'checked'
        : errors
          ? 'not written (fix the errors first)'
          : written.length
            ? `wrote ${written.length} file${written.length === 1 ? '' : 's'}`
            : 'up to date'
    const from = cached ? ' (nothing changed since the last clean run: no module ran; --no-cache runs them)' : ''
    // Tools left out (invalid, or failing to load) are counted apart: "2 tools" for 4 definitions read as a miscount.
    const found = result.found ?? result.toolCount
    const tools = found > result.toolCount ? `${found} tools found, ${result.toolCount} of them valid` : `${result.toolCount} tool${result.toolCount === 1 ? '' : 's'}`
    io.out(`mcp-bridge ${command}: ${tools}, ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}; ${verb}${from}`)
  }
  return errors > 0 ? 1 : 0
}

export { parseTimeout } from './cli-timeout.ts'

/** Why `root` cannot be a project (it must be an existing directory; nothing is created for it). */
function directoryProblem(root: string): string | undefined {
  try {
    return statSync(root).isDirectory() ? undefined : 'is a file, not a directory'
  } catch {
    return 'no such directory'
  }
}
