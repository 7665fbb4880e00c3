/** The conformance suite's test prompts, written with `createMcpPrompt` as a user would. */
import { createMcpPrompt } from '@mcp-bridge/runtime'
import { z } from 'zod'

/** A 1×1 PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

export const conformancePrompts = [
  createMcpPrompt('test_simple_prompt')
    .description('A simple prompt without arguments')
    .messages(() => 'This is a simple prompt for testing.'),
  createMcpPrompt('test_prompt_with_arguments')
    .description('A prompt with two required arguments')
    .arguments(z.object({ arg1: z.string().describe('First test argument'), arg2: z.string().describe('Second test argument') }))
    // The suite asks for suggestions for arg1 (completion/complete).
    .complete({ arg1: (typed) => ['paris', 'park', 'party', 'test', 'testing'].filter((word) => word.startsWith(typed)) })
    .messages(({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`),
  createMcpPrompt('test_prompt_with_embedded_resource')
    .description('A prompt that embeds a resource')
    .arguments(z.object({ resourceUri: z.string().describe('URI of the resource to embed') }))
    .messages(({ resourceUri }) => [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ]),
  createMcpPrompt('test_prompt_with_image')
    .description('A prompt with an image')
    .messages(() => [
      { role: 'user', content: { type: 'image', data: PIXEL, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ]),
]
