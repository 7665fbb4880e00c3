/**
 * Following `makePlugin(bookFlight)` to the variable `bookFlight` names, by reading import and
 * export declarations only. ts-morph's `getDefinitionNodes()` would do it too, but it builds a
 * whole TypeScript program first — the runtime's sources, zod's and React's types, the lib
 * files — which cost about a second per cold generation for one answer we can read off the
 * syntax. Relative specifiers are followed (with the extensions Vite resolves); a bare or
 * aliased specifier is not, and the caller reports the plugin's tool as unresolved.
 */
import { existsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Identifier, SourceFile, VariableDeclaration } from 'ts-morph'
import { Node } from './ts-morph.ts'

/** Re-export hops followed before giving up (a cycle of re-exports ends here too). */
const MAX_HOPS = 8

/** The top-level variable an identifier refers to, in its own file or through relative imports. */
export function resolveVariable(id: Identifier): VariableDeclaration | undefined {
  const file = id.getSourceFile()
  const name = id.getText()
  const local = file.getVariableDeclaration(name)
  if (local) return local
  for (const decl of file.getImportDeclarations()) {
    const imported =
      decl.getDefaultImport()?.getText() === name
        ? 'default'
        : decl.getNamedImports().find((n) => (n.getAliasNode()?.getText() ?? n.getName()) === name)?.getName()
    if (!imported) continue
    const target = importedFile(file, decl.getModuleSpecifierValue())
    return target && exportedVariable(target, imported, MAX_HOPS)
  }
  return undefined
}

/** The variable a module exports under `name` (`export const`, `export { a as name }`, `export default a`, re-exports). */
function exportedVariable(file: SourceFile, name: string, hops: number): VariableDeclaration | undefined {
  if (hops === 0) return undefined
  if (name === 'default') {
    const assignment = file.getExportAssignments().find((a) => !a.isExportEquals())
    const expression = assignment?.getExpression()
    return expression && Node.isIdentifier(expression) ? file.getVariableDeclaration(expression.getText()) : undefined
  }
  const declared = file.getVariableDeclaration(name)
  if (declared?.getVariableStatement()?.isExported()) return declared
  for (const decl of file.getExportDeclarations()) {
    const specifier = decl.getModuleSpecifierValue()
    for (const named of decl.getNamedExports()) {
      if ((named.getAliasNode()?.getText() ?? named.getName()) !== name) continue
      if (specifier === undefined) return file.getVariableDeclaration(named.getName())
      const target = importedFile(file, specifier)
      return target && exportedVariable(target, named.getName(), hops - 1)
    }
    // `export * from './x'`: the name may come from there.
    if (specifier !== undefined && decl.getNamedExports().length === 0 && !decl.getNamespaceExport()) {
      const target = importedFile(file, specifier)
      const found = target && exportedVariable(target, name, hops - 1)
      if (found) return found
    }
  }
  return undefined
}

/** The source file a relative specifier points at, added to the project when it is not in it yet. */
function importedFile(from: SourceFile, specifier: string): SourceFile | undefined {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return undefined
  const base = resolve(dirname(from.getFilePath()), specifier)
  const candidates = [
    base,
    base.replace(/\.(m?)js$/, '.$1ts'),
    base.replace(/\.jsx$/, '.tsx'),
    ...['.ts', '.tsx', '.js', '.jsx', '.mts'].map((ext) => base + ext),
    ...['index.ts', 'index.tsx', 'index.js'].map((index) => `${base}/${index}`),
  ]
  const project = from.getProject()
  for (const candidate of candidates) {
    const known = project.getSourceFile(candidate)
    if (known) return known
    if (existsSync(candidate) && statSync(candidate).isFile()) return project.addSourceFileAtPath(candidate)
  }
  return undefined
}
