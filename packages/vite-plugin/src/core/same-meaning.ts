/**
 * Whether a generated file on disk says what the generator would write, whatever the app's
 * formatter or linter did to it. Apps run prettier (semicolons, quotes, line width, trailing
 * commas) and `eslint --fix` (import order, sorted specifiers, comments) over `src/`, and their
 * pre-commit hooks do it again; a byte comparison would then call every such registry out of
 * date — failing `mcp-bridge check` in CI — and each regeneration would undo the app's style.
 * So: the manifest compares as parsed JSON, and a registry by its tokens with comments,
 * whitespace, semicolons, trailing commas and the kind of quote left out, its imports in any
 * order. The order of everything else still counts.
 */
export function sameMeaning(path: string, onDisk: string, generated: string): boolean {
  if (onDisk === generated) return true
  if (path.endsWith('.json')) {
    try {
      return JSON.stringify(JSON.parse(onDisk)) === JSON.stringify(JSON.parse(generated))
    } catch {
      return false
    }
  }
  return canonical(essence(onDisk)) === canonical(essence(generated))
}

/** One import declaration at the start of an `essence` (named, default, namespace or type-only). */
const LEADING_IMPORT = /^import(?:type)?(?:\{([^}]*)\}|\*as[\w$]+|[\w$]+(?:,\{([^}]*)\})?)from'(?:[^'\\]|\\.)*'/

/** `essence` with its leading imports sorted, and the names inside each import's braces sorted. */
function canonical(code: string): string {
  const imports: string[] = []
  let rest = code
  for (let m = LEADING_IMPORT.exec(rest); m; m = LEADING_IMPORT.exec(rest)) {
    imports.push(m[0].replace(/\{([^}]*)\}/, (_all, names: string) => `{${names.split(',').filter(Boolean).sort().join(',')}}`))
    rest = rest.slice(m[0].length)
  }
  return [...imports.sort(), rest].join('')
}

/** The code without what formatters change: comments, whitespace, `;`, trailing commas, quote kinds. */
export function essence(code: string): string {
  let out = ''
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!
    if (c === '/' && code[i + 1] === '/') {
      while (i < code.length && code[i] !== '\n') i++
      continue
    }
    if (c === '/' && code[i + 1] === '*') {
      const end = code.indexOf('*/', i + 2)
      i = end === -1 ? code.length : end + 1
      continue
    }
    if (c === "'" || c === '"' || c === '`') {
      let text = ''
      for (i++; i < code.length && code[i] !== c; i++) {
        if (code[i] === '\\' && (code[i + 1] === "'" || code[i + 1] === '"')) {
          text += code[++i]
          continue
        }
        text += code[i]
        if (code[i] === '\\') text += code[++i] ?? ''
      }
      out += `'${text.replace(/'/g, "\\'")}'`
      continue
    }
    if (/\s/.test(c) || c === ';') continue
    if (c === ',') {
      let j = i + 1
      while (j < code.length && /\s/.test(code[j]!)) j++
      if (code[j] === ')' || code[j] === ']' || code[j] === '}') continue
    }
    out += c
  }
  return out
}
