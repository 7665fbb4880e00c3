/**
 * The playground's sign-in, as small as an app's can be: two demo users, chosen in the page's
 * header, carried by a cookie. A real app reads its own session here (and looks it up); what
 * mcp-bridge needs from it is `authenticate(request)` → who is signed in, or nobody.
 */
import type { AppCaller } from '@mcp-bridge/runtime/server'

/** The demo users, by the cookie's value. */
export const DEMO_USERS: Record<string, { subject: string; name: string }> = {
  ada: { subject: 'demo-user-ada', name: 'Ada Lovelace' },
  bob: { subject: 'demo-user-bob', name: 'Bob Kahn' },
}

/** The cookie the header's user menu sets. */
export const USER_COOKIE = 'playground_user'

/** Who is signed in: the demo user the cookie names, or nobody (the playground works without). */
export function authenticate(request: Request): AppCaller | undefined {
  const value = new RegExp(`(?:^|;\\s*)${USER_COOKIE}=([^;]+)`).exec(request.headers.get('cookie') ?? '')?.[1]
  const user = value === undefined ? undefined : DEMO_USERS[value]
  return user && { subject: user.subject, scopes: ['bookings:write'], extra: { name: user.name } }
}
