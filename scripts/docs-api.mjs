#!/usr/bin/env node
/**
 * The docs site's API reference, generated from the packages' TSDoc: TypeDoc (with its markdown
 * plugin) reads each package's built declarations (`dist/*.d.ts`, one module per export path) and
 * writes `docs/api/<package>/`. TypeDoc needs TypeScript 5–6, not the workspace's 7, so it is
 * kept apart in `.cache/typedoc` (installed on first use) rather than as a dependency.
 * Run after `npm run build`; `npm run docs:build` does both.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const tools = join(root, '.cache', 'typedoc')
const typedoc = join(tools, 'node_modules', 'typedoc', 'bin', 'typedoc')
const SPECS = ['typedoc@0.28', 'typedoc-plugin-markdown@4', 'typescript@5.9']

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

if (!existsSync(typedoc)) {
  console.log(`docs-api: installing ${SPECS.join(', ')} into .cache/typedoc`)
  run('npm', ['install', '--prefix', tools, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', ...SPECS], root)
}

for (const pkg of ['runtime', 'vite-plugin']) {
  const dir = join(root, 'packages', pkg)
  const { name, exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const entries = Object.values(exports).map((target) => join(dir, target.types))
  const missing = entries.filter((file) => !existsSync(file))
  if (missing.length) {
    console.error(`docs-api: ${name} is not built (${missing[0]} is missing); run npm run build first`)
    process.exit(1)
  }
  const out = join(root, 'docs', 'api', pkg)
  rmSync(out, { recursive: true, force: true })
  mkdirSync(tools, { recursive: true })
  // The declarations only: the app's own tsconfig (TypeScript 7 options) is not TypeDoc's to read.
  const tsconfig = join(tools, `tsconfig.${pkg}.json`)
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: true, noEmit: true, jsx: 'react-jsx', types: [] },
      files: entries,
    }),
  )
  run(
    process.execPath,
    [
      typedoc,
      '--plugin',
      'typedoc-plugin-markdown',
      '--tsconfig',
      tsconfig,
      ...entries.flatMap((entry) => ['--entryPoints', entry]),
      '--name',
      name,
      '--out',
      out,
      // The reflections as JSON too: the docs test checks every export is documented (with an example for functions).
      '--json',
      join(tools, `${pkg}.json`),
      '--readme',
      'none',
      '--skipErrorChecking',
      '--outputFileStrategy',
      'modules',
      '--entryFileName',
      'index',
      '--hidePageHeader',
      '--hideBreadcrumbs',
      '--useCodeBlocks',
      '--disableSources',
      '--logLevel',
      'Error',
    ],
    root,
  )
  // TypeDoc names a module by its declaration file (`index`, `ai-sdk-react`): title each page
  // with the import path a user writes instead.
  for (const [subpath, target] of Object.entries(exports)) {
    const base = target.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '')
    const file = join(out, base === 'index' ? 'index-1.md' : `${base}.md`)
    const title = `${name}${subpath.slice(1)}`
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^# .*$/m, `# ${title}`))
    const list = join(out, 'index.md')
    writeFileSync(list, readFileSync(list, 'utf8').replace(`- [${base}](${base === 'index' ? 'index-1' : base}.md)`, `- [${title}](${base === 'index' ? 'index-1' : base}.md)`))
  }
}
console.log('docs-api: wrote docs/api/runtime and docs/api/vite-plugin')
