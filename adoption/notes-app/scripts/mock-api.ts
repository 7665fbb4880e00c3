// The app's mock notes API, run with vite-node (which loads vite.config.ts with a Vite of its own).
import { stored } from '../src/server/notes-api.server.ts'
import { noteForm } from '../src/lib/schemas.ts'

const sample = noteForm.parse({ title: 'From the mock API' })
stored.push({ ...sample, token: 'mock', signature: 'mock' })
console.log(`mock notes api ready: ${stored.length} note(s)`)
