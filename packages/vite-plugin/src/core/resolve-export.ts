/**
 * Following `createPlugin(bookFlight)` to the variable `bookFlight` names, by reading import and
 * export declarations only (no type checker, no program). Relative specifiers are followed (with
 * the extensions Vite resolves); a bare or aliased specifier is not, and the caller reports the
 * plugin's tool as unresolved.
 */
import { dirname, resolve } from 'node:path'
import { keyName, type EsNode } from './estree.ts'
import type { ParsedSource, SourceReader } from './parsed-source.ts'

/** Re-export hops followed before giving up (a cycle of re-exports ends here too). */
const MAX_HOPS = 8

export interface VariableRef {
  source: ParsedSource
  /** The `VariableDeclarator`. */
  declarator: EsNode
}

/** The top-level variable an identifier names, in its own file or through relative imports. */
export function resolveVariable(source: ParsedSource, name: string, reader: SourceReader): VariableRef | undefined {
  const local = topLevelVariable(source, name)
  if (local) return local
  for (const decl of source.program.body as EsNode[]) {
    if (decl.type !== 'ImportDeclaration') continue
    const spec = (decl.specifiers as EsNode[]).find((s) => s.type !== 'ImportNamespaceSpecifier' && (s.local as EsNode).name === name)
    if (!spec) continue
    const imported = spec.type === 'ImportDefaultSpecifier' ? 'default' : keyName(spec.imported)
    const target = imported && importedFile(source, (decl.source as EsNode).value as string, reader)
    return target && imported ? exportedVariable(target, imported, reader, MAX_HOPS) : undefined
  }
  return undefined
}

/** The name a top-level variable is exported under (`export const`, `export { x as y }`, `export default x`), if any. */
export function exportNameOf(source: ParsedSource, declarator: EsNode): string | undefined {
  const name = (declarator.id as EsNode).name as string
  const statement = source.parents.get(declarator)
  if (statement && source.parents.get(statement)?.type === 'ExportNamedDeclaration') return name
  for (const decl of source.program.body as EsNode[]) {
    if (decl.type === 'ExportNamedDeclaration' && !decl.source) {
      const spec = (decl.specifiers as EsNode[]).find((s) => keyName(s.local) === name)
      if (spec) return keyName(spec.exported)
    }
  }
  return defaultExportedIdentifier(source) === name ? 'default' : undefined
}

/** `export default x` with an identifier: `x`. */
function defaultExportedIdentifier(source: ParsedSource): string | undefined {
  const decl = (source.program.body as EsNode[]).find((d) => d.type === 'ExportDefaultDeclaration')
  const expression = decl?.declaration as EsNode | undefined
  return expression?.type === 'Identifier' ? (expression.name as string) : undefined
}

function topLevelVariable(source: ParsedSource, name: string): VariableRef | undefined {
  for (const statement of source.program.body as EsNode[]) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as EsNode | null) : statement
    if (declaration?.type !== 'VariableDeclaration') continue
    const declarator = (declaration.declarations as EsNode[]).find((d) => (d.id as EsNode).type === 'Identifier' && (d.id as EsNode).name === name)
    if (declarator) return { source, declarator }
  }
  return undefined
}

/** The variable a module exports under `name` (`export const`, `export { a as name }`, `export default a`, re-exports). */
function exportedVariable(source: ParsedSource, name: string, reader: SourceReader, hops: number): VariableRef | undefined {
  if (hops === 0) return undefined
  if (name === 'default') {
    const local = defaultExportedIdentifier(source)
    return local === undefined ? undefined : topLevelVariable(source, local)
  }
  const declared = topLevelVariable(source, name)
  if (declared && source.parents.get(source.parents.get(declared.declarator)!)?.type === 'ExportNamedDeclaration') return declared
  for (const decl of source.program.body as EsNode[]) {
    const specifier = (decl.source as EsNode | null | undefined)?.value as string | undefined
    if (decl.type === 'ExportNamedDeclaration') {
      const spec = (decl.specifiers as EsNode[]).find((s) => keyName(s.exported) === name)
      if (!spec) continue
      const local = keyName(spec.local)!
      if (specifier === undefined) return topLevelVariable(source, local)
      const target = importedFile(source, specifier, reader)
      return target && exportedVariable(target, local, reader, hops - 1)
    }
    // `export * from './x'`: the name may come from there.
    if (decl.type === 'ExportAllDeclaration' && !decl.exported && specifier !== undefined) {
      const target = importedFile(source, specifier, reader)
      const found = target && exportedVariable(target, name, reader, hops - 1)
      if (found) return found
    }
  }
  return undefined
}

/** The source file a relative specifier points at. */
function importedFile(from: ParsedSource, specifier: string, reader: SourceReader): ParsedSource | undefined {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return undefined
  const base = resolve(dirname(from.path), specifier)
  const candidates = [
    base,
    base.replace(/\.(m?)js$/, '.$1ts'),
    base.replace(/\.jsx$/, '.tsx'),
    ...['.ts', '.tsx', '.js', '.jsx', '.mts'].map((ext) => base + ext),
    ...['index.ts', 'index.tsx', 'index.js'].map((index) => `${base}/${index}`),
  ]
  for (const candidate of candidates) {
    let found: ParsedSource | undefined
    try {
      found = reader.get(candidate)
    } catch {
      return undefined // it does not parse: its own discovery reports that
    }
    if (found) return found
  }
  return undefined
}
