/**
 * The docs site (VitePress): the guide, the reference, and the API reference TypeDoc generates
 * from the packages' TSDoc into api/ (`npm run docs:build` runs it first). A dead link fails the
 * build (VitePress's default, kept on purpose).
 */
import { existsSync, readdirSync } from 'node:fs'
import { defineConfig } from 'vitepress'

const guide = [
  {
    text: 'Start',
    items: [
      { text: 'Getting started', link: '/guide/getting-started' },
      { text: 'Concepts', link: '/guide/concepts' },
      { text: 'Add to an existing app', link: '/guide/existing-app' },
    ],
  },
  {
    text: 'Guides',
    items: [
      { text: 'Tools', link: '/guide/tools' },
      { text: 'Plugins', link: '/guide/plugins' },
      { text: 'Elicitation schemas', link: '/guide/schemas' },
      { text: 'The Vite plugin and the CLI', link: '/guide/vite-plugin' },
      { text: 'The chat server', link: '/guide/chat' },
      { text: 'Durable calls', link: '/guide/durable-calls' },
      { text: 'Serving over MCP', link: '/guide/mcp-server' },
      { text: 'MCP Apps', link: '/guide/mcp-apps' },
      { text: 'Use with the AI SDK', link: '/guide/ai-sdk' },
      { text: 'React Router', link: '/guide/react-router' },
      { text: 'TanStack Start', link: '/guide/tanstack-start' },
      { text: 'Testing', link: '/guide/testing' },
      { text: 'Security', link: '/guide/security' },
      { text: 'Observability', link: '/guide/observability' },
      { text: 'Deployment', link: '/guide/deployment' },
    ],
  },
]

const reference = [
  {
    text: 'Reference',
    items: [
      { text: 'Troubleshooting', link: '/reference/troubleshooting' },
      { text: 'Architecture', link: '/reference/architecture' },
      { text: 'Benchmarks', link: '/reference/benchmarks' },
    ],
  },
]

/** The generated API pages of a package, as a sidebar group (empty until docs-api ran). */
function api(pkg: string) {
  const dir = new URL(`../api/${pkg}/`, import.meta.url)
  const pages = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'index.md') : []
  const title = (file: string) => (file === 'index-1.md' ? `@mcp-bridge/${pkg}` : `@mcp-bridge/${pkg}/${file.replace(/\.md$/, '').replace('ai-sdk-react', 'ai-sdk/react')}`)
  return {
    text: `@mcp-bridge/${pkg}`,
    link: `/api/${pkg}/`,
    collapsed: false,
    items: pages.sort().map((file) => ({ text: title(file), link: `/api/${pkg}/${file.replace(/\.md$/, '')}` })),
  }
}

export default defineConfig({
  title: 'mcp-bridge',
  description: 'Author an MCP tool once; answer its questions in your own React UI, in your chat or any MCP client.',
  cleanUrls: true,
  head: [['link', { rel: 'icon', href: 'data:,' }]],
  // The local search index holds the API reference too: one large chunk, loaded when searching.
  vite: { build: { chunkSizeWarningLimit: 4000 } },
  // The screenshots folder is assets, and nothing outside docs/ is a page.
  srcExclude: ['**/README.md'],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Reference', link: '/reference/troubleshooting' },
      { text: 'API', link: '/api/runtime/' },
    ],
    sidebar: {
      '/guide/': [...guide, ...reference],
      '/reference/': [...guide, ...reference],
      '/api/': [api('runtime'), api('vite-plugin')],
    },
    search: { provider: 'local' },
    outline: [2, 3],
  },
})
