/**
 * The header's demo sign-in: who the chat acts for (tools read it as `ctx.auth`). The choice is a
 * cookie the server's `authenticate` reads; each user has their own conversations, so switching
 * reloads the page into that user's chat.
 */
const USERS = [
  { value: '', label: 'Guest' },
  { value: 'ada', label: 'Ada' },
  { value: 'bob', label: 'Bob' },
]
const COOKIE = 'playground_user'

function current(): string {
  return new RegExp(`(?:^|;\\s*)${COOKIE}=([^;]+)`).exec(document.cookie)?.[1] ?? ''
}

export function UserMenu() {
  const choose = (value: string) => {
    document.cookie = value ? `${COOKIE}=${value}; path=/; SameSite=Lax` : `${COOKIE}=; path=/; max-age=0; SameSite=Lax`
    location.reload()
  }
  return (
    <label className="user-menu">
      <span>Signed in as</span>
      <select value={current()} onChange={(e) => choose(e.target.value)}>
        {USERS.map((u) => (
          <option key={u.value} value={u.value}>
            {u.label}
          </option>
        ))}
      </select>
    </label>
  )
}
