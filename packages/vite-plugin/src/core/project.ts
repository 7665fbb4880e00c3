/**
 * A ts-morph project over the included files, set up like a Vite + TypeScript app (bundler
 * resolution, `.ts` extensions allowed in imports, JSX) so imports between tool files resolve.
 */
import { Project, ts } from 'ts-morph'

export function createDiscoveryProject(files: readonly string[]): Project {
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      jsx: ts.JsxEmit.ReactJSX,
      allowJs: true,
      noEmit: true,
    },
  })
  for (const file of files) project.addSourceFileAtPath(file)
  return project
}
