/** The playground's build_report tool, run on its own: its summary speaks of one section as one. */
import { describe, expect, it } from 'vitest'
import { createMockMcpClient, runMcpTool } from '@mcp-bridge/runtime/testing'
import { buildReport } from '../src/tools/build-report/tool.ts'

describe('build_report', () => {
  it.each([
    [1, 'Report with 1 section is ready.'],
    [3, 'Report with 3 sections is ready.'],
  ])(
    'with %i step(s) says "%s"',
    async (steps, summary) => {
      const run = await runMcpTool(buildReport, { steps }, createMockMcpClient())
      expect(run.status).toBe('completed')
      expect(run.result).toMatchObject({ structured: { sections: steps, summary }, content: [{ type: 'text', text: summary }, { type: 'image' }] })
    },
    15_000,
  )
})
