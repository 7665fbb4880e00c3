import { isValidElement, type ReactNode } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import { CopyButton } from './CopyButton.tsx'

/** The text inside a rendered element (a code block's code), for Copy. */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node)
  if (Array.isArray(node)) return node.map(textOf).join('')
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children)
  return ''
}

/**
 * Model text as markdown (bold, lists, links, code blocks) with react-markdown: it builds React
 * elements from the markdown tree and never injects HTML — raw HTML in the text (`<script>`,
 * `<img onerror>`) stays text. Its default URL filter empties an unsafe link (`javascript:`,
 * `data:`); such a link is shown as its text, not as a link (an empty `href` would open this app
 * in a new tab). Links open in a new tab, without access to this page. A code block has its own
 * Copy button.
 */
const components: Components = {
  pre: ({ node: _node, children, ...props }) => (
    <div className="code-block">
      <pre {...props}>{children}</pre>
      <CopyButton text={textOf(children).replace(/\n$/, '')} label="Copy code" className="action copy-code" />
    </div>
  ),
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
