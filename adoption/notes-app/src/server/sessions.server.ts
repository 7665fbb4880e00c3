// The app's own cookie sessions (a real app keeps these in its database).
export const users: Record<string, { name: string; notesToken: string }> = {
  'user-1': { name: 'Grace', notesToken: 'nt_grace_3b1f' },
  'user-2': { name: 'Linus', notesToken: 'nt_linus_9c2e' },
}

const sessions: Record<string, string> = { 'sid-grace': 'user-1', 'sid-linus': 'user-2' }

export function userFromCookie(cookieHeader: string | null): string | undefined {
  const sid = cookieHeader
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === 'sid')?.[1]
  return sid ? sessions[sid] : undefined
}
