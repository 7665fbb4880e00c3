/** One POST to a chat endpoint, read as the browser client reads it: newline-delimited JSON events. */
export interface ChatEvent {
  type: string
  [key: string]: unknown
}

/** `headers`: what the app's own sign-in sends (a session cookie). */
export async function postChat(url: string, body: unknown, headers: Record<string, string> = {}): Promise<ChatEvent[]> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const text = await response.text()
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 500)}`)
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ChatEvent)
}
