/**
 * What a person would type into a plain MCP form (the requested schema and the message, all a
 * client that knows nothing of a tool shows): the first titled choice, a free seat, defaults, the
 * example the text gives, a name where one is required.
 */
export interface Property {
  type?: string
  oneOf?: Array<{ const: string; title: string }>
  enum?: unknown[]
  items?: { enum?: unknown[]; anyOf?: Array<{ const: string }> }
  default?: unknown
  minimum?: number
  maximum?: number
  pattern?: string
  description?: string
}
export interface PlainForm {
  message: string
  requestedSchema: { properties: Record<string, Property>; required?: string[] }
}

/** An example the text gives for what to type ("a hex color such as #3b82f6"). */
const example = (text: string) => /(?:such as|like|e\.g\.) ([^\s,;)]+)/.exec(text)?.[1]?.replace(/\.$/, '')

/** What a person would type into the form, from what the form shows. */
export function fillPlainForm({ message, requestedSchema }: PlainForm): Record<string, unknown> {
  const content: Record<string, unknown> = {}
  const taken = new Set((/Taken: ([^.]*)\./.exec(message)?.[1] ?? '').split(/,\s*/))
  const entries = Object.entries(requestedSchema.properties)
  for (const [name, p] of entries) {
    if (p.oneOf) content[name] = p.oneOf[0]!.const
    else if (p.enum) content[name] = p.enum.find((v) => !taken.has(String(v))) ?? p.enum[0]
    else if (p.type === 'array') content[name] = [p.items?.enum?.[0] ?? p.items?.anyOf?.[0]?.const].filter((v) => v !== undefined)
    else if (p.type === 'boolean') content[name] = p.default ?? true
    else if (p.type === 'integer' || p.type === 'number') content[name] = p.default ?? p.maximum ?? p.minimum ?? 1
    else if (p.default !== undefined) content[name] = p.default
    else if (p.type === 'string' && example(`${p.description ?? ''} ${message}`)) content[name] = example(`${p.description ?? ''} ${message}`)
    else if (requestedSchema.required?.includes(name)) content[name] = 'Ada Lovelace'
  }
  // A seat: a row and a letter together; skip the combinations the message says are taken.
  const row = entries.find(([, p]) => p.type === 'integer' && p.maximum !== undefined)
  const letter = entries.find(([, p]) => p.enum)
  if (row && letter) {
    for (let r = row[1].maximum!; r >= (row[1].minimum ?? 1); r--) {
      const free = letter[1].enum!.find((l) => !taken.has(`${r}${String(l)}`))
      if (free !== undefined) {
        content[row[0]] = r
        content[letter[0]] = free
        break
      }
    }
  }
  for (const key of Object.keys(content)) if (content[key] === undefined) delete content[key]
  return content
}
