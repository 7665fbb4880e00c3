/**
 * A ts-morph project over the included files, set up like a Vite + TypeScript app (bundler
 * resolution, `.ts` extensions allowed in imports, JSX). Discovery reads syntax only, so no
 * program is ever built: no lib files, no node_modules types.
 */
import type { Project } from 'ts-morph'
import { tsMorph } from './ts-morph.ts'

export function createDiscoveryProject(files: readonly string[]): Project {
  const { Project, ts } = tsMorph()
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
