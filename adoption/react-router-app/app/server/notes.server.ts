/**
 * The app's notes store: server code by React Router's convention (`.server`), which its build
 * refuses to put in the browser bundle. The save_note tool's body uses it; its plugin does not.
 */
const NOTES_SERVER_ONLY_MARKER = 'notes-db://NOTES_SERVER_ONLY_MARKER'
const notes: string[] = []

export function saveNote(title: string): { id: number; store: string } {
  notes.push(title)
  return { id: notes.length, store: NOTES_SERVER_ONLY_MARKER.split('://')[0]! }
}
