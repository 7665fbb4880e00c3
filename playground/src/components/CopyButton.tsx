import { useEffect, useState } from 'react'

/**
 * Copies `text` to the clipboard and says so for a moment ("Copied"), visibly and to screen
 * readers (the button's own name changes). Where the clipboard is refused, it says that instead.
 * `what` tells screen readers what it copies ("Copy what you wrote “Book a…”"): a list of buttons
 * all named "Copy" says nothing.
 */
export function CopyButton({ text, label = 'Copy', what, className = 'action' }: { text: string; label?: string; what?: string; className?: string }) {
  const [said, setSaid] = useState<string | undefined>()
  useEffect(() => {
    if (!said) return
    const timer = setTimeout(() => setSaid(undefined), 1500)
    return () => clearTimeout(timer)
  }, [said])
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setSaid('Copied'),
      () => setSaid('Copy failed'),
    )
  return (
    // The name starts with what it shows ("Copy", "Copied"); only assistive tech hears what it copies.
    <button type="button" className={className} aria-label={what && !said ? `${label} ${what}` : undefined} onClick={() => void copy()}>
      {said ?? label}
    </button>
  )
}
