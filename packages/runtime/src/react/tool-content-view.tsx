/**
 * `<ToolContentView content={…} />`: what a tool returned with `withContent(...)`, for people —
 * text, images, audio, embedded resources (their text, or a download) and links. Only plain image
 * and audio types are shown inline (as data URLs, which run no script); a link opens in a new tab
 * when it is http(s), and is shown as text otherwise.
 */
import type { RichContent } from '../sampling/content.ts'

const INLINE_IMAGES = /^image\/(png|jpeg|gif|webp|svg\+xml)$/
const INLINE_AUDIO = /^audio\/(wav|x-wav|mpeg|mp3|ogg|webm)$/

/**
 * Shows a tool result's content blocks (text, images, audio, resources) on its tool card.
 *
 * @example
 * ```tsx
 * import { ToolContentView } from '@mcp-bridge/runtime/react'
 *
 * export const Result = () => <ToolContentView content={[{ type: 'text', text: 'Booked.' }]} />
 * ```
 */
export function ToolContentView({ content }: { content: readonly RichContent[] }) {
  return (
    <div className="mcp-tool-content">
      {content.map((block, i) => (
        <Block key={i} block={block} />
      ))}
    </div>
  )
}

function Block({ block }: { block: RichContent }) {
  switch (block.type) {
    case 'text':
      return <p className="mcp-content-text">{block.text}</p>
    case 'image':
      return INLINE_IMAGES.test(block.mimeType) ? (
        <img className="mcp-content-image" src={`data:${block.mimeType};base64,${block.data}`} alt={`Image from the tool (${block.mimeType})`} />
      ) : (
        <p className="mcp-content-text">[an image of type {block.mimeType}]</p>
      )
    case 'audio':
      return INLINE_AUDIO.test(block.mimeType) ? (
        <audio className="mcp-content-audio" controls src={`data:${block.mimeType};base64,${block.data}`} aria-label={`Audio from the tool (${block.mimeType})`} />
      ) : (
        <p className="mcp-content-text">[audio of type {block.mimeType}]</p>
      )
    case 'resource': {
      const { resource } = block
      return 'text' in resource ? (
        <details className="mcp-content-resource">
          <summary>{resource.uri}</summary>
          <pre>{resource.text}</pre>
        </details>
      ) : (
        <a
          className="mcp-content-resource"
          href={`data:${resource.mimeType ?? 'application/octet-stream'};base64,${resource.blob}`}
          download={resource.uri.split('/').pop() || 'resource'}
        >
          Download {resource.uri}
        </a>
      )
    }
    case 'resource_link':
      return /^https?:\/\//i.test(block.uri) ? (
        <a className="mcp-content-link" href={block.uri} target="_blank" rel="noopener noreferrer">
          {block.name}
        </a>
      ) : (
        <p className="mcp-content-link">
          {block.name} <span>({block.uri})</span>
        </p>
      )
  }
}
