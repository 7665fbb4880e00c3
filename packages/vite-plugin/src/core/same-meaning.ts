/**
 * Whether a generated file on disk says what the generator would write, whatever the app's
 * formatter did to it. Apps run prettier (semicolons, quotes, line width, trailing commas) over
 * `src/`, and their pre-commit hooks do it again; a byte comparison would then call every
 * formatted registry out of date, and each regeneration would undo the formatting. So: the
 * manifest compares as parsed JSON, and a registry by its tokens with comments, whitespace,
 * semicolons, trailing commas and the kind of quote left out. (The ESLint header keeps rule
 * fixes such as import order away, so the order of statements still counts.)
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
  // The header must be there (an older file without it is rewritten); then the code counts.
  const header = generated.slice(0, generated.indexOf('\n'))
  return onDisk.trimStart().startsWith(header) && essence(onDisk) === essence(generated)
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
