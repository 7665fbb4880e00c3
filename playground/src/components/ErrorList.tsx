import type { IssueSummary } from '@mcp-bridge/runtime/errors'

/** Why the last answer was refused (in the component or by the server), one alert a problem. */
export function ErrorList({ errors }: { errors: readonly IssueSummary[] | undefined }) {
  return (
    <>
      {errors?.map((e) => (
        <p role="alert" className="error" key={e.path + e.message}>
          {e.message}
        </p>
      ))}
    </>
  )
}
