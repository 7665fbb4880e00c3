import { useEffect, useState } from 'react'

/**
 * Copies `text` to the clipboard and says so for a moment ("Copied"), visibly and to screen
 * readers (the button's own name changes). Where the clipboard is refused, it says that instead.
 */
export function CopyButton({ text, label = 'Copy', className = 'action' }: { text: string; label?: string; className?: string }) {
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
    <button type="button" className={className} onClick={() => void copy()}>
      {said ?? label}
    </button>
  )
}
