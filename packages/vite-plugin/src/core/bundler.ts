/**
 * The Vites we run on, in one place. Vite 8 bundles with Rolldown (`build.rolldownOptions`);
 * Vite 6 and 7 with Rollup (`build.rollupOptions`), whose one-file output is spelled
 * `inlineDynamicImports` where Rolldown's is `codeSplitting: false`. Vite 5 and older lack the
 * environments API the plugin builds on, and are refused (see the plugin's `configResolved`).
 *
 * "The app's Vite" is the one this package imports: the one installed beside it in the app. A
 * tool that loads the app's config with a Vite of its own (vite-node 1, an old Storybook builder)
 * may run another; the plugin then stays inert.
 */
import * as vite from 'vite'
import type { BuildEnvironmentOptions } from 'vite'

/** The oldest major with the environments API. */
export const OLDEST_VITE = 6

/** The app's Vite version (`8.3.8`). */
export const appViteVersion: string = vite.version

export function majorOf(version: string): number {
  return Number(version.split('.')[0])
}

/** Whether the app's Vite bundles with Rolldown. */
export const onRolldown = majorOf(appViteVersion) >= 8

type BundlerOptions = NonNullable<BuildEnvironmentOptions['rollupOptions']>

/**
 * `options` under the key the app's Vite reads; `single`: every module in one output file
 * (dynamic imports inlined).
 */
export function bundlerOptions(options: BundlerOptions, { single = false }: { single?: boolean } = {}): Pick<BuildEnvironmentOptions, 'rolldownOptions' | 'rollupOptions'> {
  const output = Array.isArray(options.output) ? options.output : { ...options.output, ...(single && (onRolldown ? { codeSplitting: false } : { inlineDynamicImports: true })) }
  const withOutput = { ...options, ...((options.output || single) && { output }) }
  return onRolldown ? { rolldownOptions: withOutput as BuildEnvironmentOptions['rolldownOptions'] } : { rollupOptions: withOutput }
}
