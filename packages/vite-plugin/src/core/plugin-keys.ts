/**
 * A plugin must name exactly its tool's elicitation keys in `.onElicit({...})` — `createPlugin`
 * throws otherwise, but only when the module runs: in the browser, after a green build. Checked
 * here from the source (the keys as written) against the tool as loaded (its declared keys), so
 * `mcp-bridge check` and `vite build` report it at the `onElicit` call.
 */
import type { Diagnostic } from './diagnostics.ts'
import type { FileDiscovery } from './discover.ts'

export function pluginKeyDiagnostics(discoveries: readonly FileDiscovery[], declaredKeys: (file: string, exportName: string) => readonly string[] | undefined): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const d of discoveries) {
    for (const plugin of d.plugins) {
      if (!plugin.tool || !plugin.handlerKeys || !plugin.onElicitLocation) continue
      const declared = declaredKeys(plugin.tool.file, plugin.tool.exportName)
      if (!declared) continue
      const missing = declared.filter((k) => !plugin.handlerKeys!.includes(k))
      const extra = plugin.handlerKeys.filter((k) => !declared.includes(k))
      if (!missing.length && !extra.length) continue
      const problems = [
        ...(missing.length ? [`no handler for ${missing.map((k) => `"${k}"`).join(', ')} (write one, or delegate it to the generated form: ${missing[0]}: generatedForm)`] : []),
        ...(extra.length ? [`handlers for undeclared key${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')}`] : []),
      ]
      out.push({
        ...plugin.onElicitLocation,
        severity: 'error',
        code: 'PLUGIN_HANDLERS',
        message: `Plugin ${plugin.exportName}: ${problems.join('; ')}. .onElicit({...}) needs exactly the keys of the tool's .elicits({...}): ${declared.map((k) => `"${k}"`).join(', ') || '(none)'}; createPlugin would throw this in the browser.`,
      })
    }
  }
  return out
}
