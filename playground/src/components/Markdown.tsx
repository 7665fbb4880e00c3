import ReactMarkdown, { type Components } from 'react-markdown'

/**
 * Model text as markdown (bold, lists, links, code blocks) with react-markdown: it builds React
 * elements from the markdown tree and never injects HTML — raw HTML in the text (`<script>`,
 * `<img onerror>`) stays text. Its default URL filter empties an unsafe link (`javascript:`,
 * `data:`); such a link is shown as its text, not as a link (an empty `href` would open this app
 * in a new tab). Links open in a new tab, without access to this page.
 */
const components: Components = {
  a: ({ node: _node, href, children, ...props }) =>
    href ? (
      <a {...props} href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span className="unsafe-link">{children}</span>
    ),
}

export function Markdown({ text }: { text: string }) {
  return (
    <ReactMarkdown components={components} skipHtml={false}>
      {text}
    </ReactMarkdown>
  )
}
