/**
 * The CLI's run in the supervised child process (see `cli-supervisor.ts`): reports each module
 * it runs and its result to the parent, then exits at once — an interval a tool module left
 * running must not keep CI waiting.
 */
import { main } from './cli.ts'

const send = (message: unknown) => new Promise<void>((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()))

const code = await main(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  loading: (file) => void process.send?.({ loading: file }),
})
await send({ done: code })
process.exit(code)
