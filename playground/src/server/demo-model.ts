/** The offline demo model's rules: what it does for each kind of request in the playground. */
import { createScriptedModel } from '@mcp-bridge/runtime/testing'

const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/**
 * "… from Oslo to Berlin." → ['Oslo', 'Berlin']: plain string search, linear in the message
 * (a regex with two lazy groups around `\s+to\s+` backtracks quadratically on long input).
 */
export function routeOf(text: string): [string, string] | undefined {
  const lower = text.toLowerCase()
  const from = lower.search(/\bfrom\s/)
  const to = lower.lastIndexOf(' to ')
  if (from === -1 || to <= from) return undefined
  const origin = text.slice(from + 5, to).trim()
  const destination = trimEnd(text.slice(to + 4))
  return origin && destination ? [titleCase(origin.slice(0, 40)), titleCase(destination.slice(0, 40))] : undefined
}

/** "Plan a day in Oslo!" → 'Oslo' (the words after the last " in "). */
export function cityOf(text: string): string | undefined {
  const at = text.toLowerCase().lastIndexOf(' in ')
  const city = at === -1 ? '' : trimEnd(text.slice(at + 4))
  return city ? titleCase(city.slice(0, 40)) : undefined
}

function trimEnd(s: string): string {
  let end = s.length
  while (end > 0 && '.!? \n\t'.includes(s[end - 1]!)) end -= 1
  return s.slice(0, end).trim()
}

export const demoModel = createScriptedModel({
  onUserMessage: [
    {
      match: (text) => routeOf(text) !== undefined,
      reply: (text) => {
        const [from, destination] = routeOf(text)!
        return { text: `Let me find flights from ${from} to ${destination}. `, toolCalls: [{ name: 'book_flight', input: { from, destination } }] }
      },
    },
    {
      match: /\b(book|flight|fly)\b/i,
      reply: { text: 'Let me find flights from New York to Los Angeles. ', toolCalls: [{ name: 'book_flight', input: { from: 'New York', destination: 'Los Angeles' } }] },
    },
    {
      match: /\bplan\b/i,
      reply: (text) => {
        const city = cityOf(text) ?? 'Oslo'
        return { text: `Let me look for things to do in ${city}. `, toolCalls: [{ name: 'plan_trip', input: { city, date: '2026-12-05' } }] }
      },
    },
    {
      // Shows what the chat renders: markdown, and the user's own words quoted back as text.
      match: /\bmarkdown\b/i,
      reply: (text) => ({
        text: [
          'Here is **bold**, *emphasis* and `code`:',
          '',
          '- a list item',
          '- [a link](https://modelcontextprotocol.io)',
          '',
          '```ts',
          'const answer = 42',
          '```',
          '',
          `You wrote: ${text.slice(0, 2_000)}`,
        ].join('\n'),
      }),
    },
    { match: /\b(table|restaurant|dinner)\b/i, reply: { text: 'Let me check the tables. ', toolCalls: [{ name: 'reserve_table', input: { restaurant: 'Luigi’s' } }] } },
    { match: /\b(colou?r|theme)\b/i, reply: { text: 'Opening the color picker. ', toolCalls: [{ name: 'choose_color', input: { purpose: 'your theme' } }] } },
    { match: /\b(rate|rating|feedback|review)\b/i, reply: { text: 'I would love your feedback. ', toolCalls: [{ name: 'rate_trip', input: {} }] } },
    {
      match: /\b(report|progress)\b/i,
      // "Build a 20-step report" asks for more sections (a longer run, e.g. to try Cancel); "a
      // thorough report" takes 24 s (reload meanwhile: its progress and Stop come back).
      reply: (text) =>
        /\bthorough\b/i.test(text)
          ? { text: 'Compiling a thorough report: this takes about half a minute. ', toolCalls: [{ name: 'build_report', input: { steps: 20, secondsPerStep: 1.2 } }] }
          : { text: 'Compiling your report. ', toolCalls: [{ name: 'build_report', input: { steps: Number(/\b(\d{1,2})-step\b/.exec(text)?.[1] ?? 5) } }] },
    },
  ],
  onToolResult: (name, result, isError) => {
    if (isError) return `Sorry, ${name} did not finish: ${String(result)}`
    const r = result as Record<string, unknown>
    switch (name) {
      case 'book_flight':
        return r.booked
          ? `You're booked! Ticket ${String(r.ticketNumber)}: ${String(r.flight)}, seat ${String(r.seat)}, $${String(r.price)}. Tip: ${String(r.tip)}`
          : `No booking made. ${String(r.reason ?? '')}`
      case 'choose_color':
        return r.chosen ? `Great choice: ${String(r.color)}${r.name ? ` (${String(r.name)})` : ''}.` : 'No color chosen.'
      case 'rate_trip':
        return r.thanks ? `Thanks for the ${String(r.stars)}-star rating!` : 'No worries, maybe next time.'
      case 'plan_trip':
        return r.planned ? `Reserved: ${String(r.activity)} (reservation ${String(r.reservation)}).` : `Nothing planned. ${String(r.reason ?? '')}`
      case 'reserve_table':
        return r.reserved
          ? `Your table for ${String(r.guests)} at ${String(r.restaurant)} is booked for ${String(r.time)}, under ${String(r.name)}.`
          : `No table reserved. ${String(r.reason ?? '')}`
      case 'build_report':
        return String(r.summary)
      default:
        return `Done: ${JSON.stringify(result)}`
    }
  },
  onSample: () => 'Arrive two hours early; security lines peak before 9am.',
  fallback:
    'Hi! I am the offline demo model. Try: "Book a flight from New York to Los Angeles", "Plan a day in Oslo", "Reserve a table for dinner", "Pick a theme color", "Rate my trip" or "Build a report".',
  chunk: 12,
})
