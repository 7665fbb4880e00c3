import ReactMarkdown, { type Components } from 'react-markdown'

/**
 * Model text as markdown (bold, lists, links, code blocks) with react-markdown: it builds React
 * elements from the markdown tree and never injects HTML — raw HTML in the text (`<script>`,
 * `<img onerror>`) stays text, and unsafe link schemes (`javascript:`) are dropped by its default
 * URL filter. Links open in a new tab, without access to this page.
 */
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
}

export function Markdown({ text }: { text: string }) {
  return (
    <ReactMarkdown components={components} skipHtml={false}>
      {text}
    </ReactMarkdown>
  )
}
