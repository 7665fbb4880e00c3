/**
 * One cold generation in this fresh process, on the built packages as users run them (plain
 * Node, no TypeScript loader): `node cold-child.mjs <root>`. Prints the time from the first import
 * of the generator to the written files, the tools found and the process's peak RSS.
 */
const [root] = process.argv.slice(2)
const t0 = performance.now()
const { McpBridgeGenerator, createBundledModuleLoader, resolveOptions } = await import('@mcp-bridge/vite-plugin/core')
const loader = createBundledModuleLoader(root, { configFile: false })
const generator = new McpBridgeGenerator(resolveOptions({}, root), loader)
const result = await generator.generate()
generator.write(result)
const ms = performance.now() - t0
await loader.close()
console.log(
  JSON.stringify({ ms, tools: result.toolCount, errors: result.diagnostics.filter((d) => d.severity === 'error').length, peakMiB: process.resourceUsage().maxRSS / 1024 }),
)
