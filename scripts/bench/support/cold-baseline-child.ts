/**
 * One cold run of a baseline in this fresh process: `node --import tsx cold-baseline-child.ts
 * <root> <sweatpants|floor>`. Timed from the baseline's first import, like `cold-child.mjs`.
 */
const [root, how] = process.argv.slice(2) as [string, 'sweatpants' | 'floor']
const t0 = performance.now()
const { regexFloor, sweatpantsGenerate } = await import('./regex-registry.ts')
const tools = how === 'floor' ? regexFloor(root) : await sweatpantsGenerate(root)
const ms = performance.now() - t0
console.log(JSON.stringify({ ms, tools, errors: 0, peakMiB: process.resourceUsage().maxRSS / 1024 }))
