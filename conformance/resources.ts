/** The conformance suite's test resources, written with `createMcpResource` as a user would. */
import { createMcpResource } from '@mcp-bridge/runtime'

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

export const conformanceResources = [
  createMcpResource('test://static-text')
    .name('Static text')
    .description('A static text resource')
    .mimeType('text/plain')
    .read(() => 'This is the content of the static text resource.'),
  createMcpResource('test://static-binary')
    .name('Static binary')
    .description('A static binary resource (a PNG)')
    .mimeType('image/png')
    .read(() => ({ blob: PIXEL })),
  createMcpResource('test://template/{id}/data')
    .name('Data by id')
    .description('A resource template: data for one id')
    .mimeType('application/json')
    .read(({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` })),
  createMcpResource('test://watched-resource')
    .name('Watched resource')
    .description('A resource clients may subscribe to')
    .mimeType('text/plain')
    .read(() => 'Watched resource content.'),
]
