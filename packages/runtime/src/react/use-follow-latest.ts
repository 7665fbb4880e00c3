/**
 * `useFollowLatest()`: keep the newest content of a chat in view while the user is at the end of
 * it, and stop when they scroll up to read (show a "jump to latest" control while `following` is
 * false). The page itself scrolls (a sticky composer below the transcript is in the flow, so
 * scrolling the document to its end puts the last message right above the composer, never
 * under it). Any growth of the transcript counts — a new message, a plugin's component, a
 * progress bar — because it is watched with a ResizeObserver, not through React state.
 *
 *   const follow = useFollowLatest()
 *   <main ref={follow.contentRef}>…</main>
 *   {!follow.following && <button onClick={follow.jumpToLatest}>Jump to latest</button>}
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'

/**
 * What `useFollowLatest` gives: the ref for the transcript, whether it follows new content, and a way back to the end.
 */
export interface FollowLatest {
  /** Attach to the element that holds the transcript. */
  contentRef: RefObject<HTMLElement | null>
  /** True while the view is at the end and follows new content. */
  following: boolean
  /** Scroll to the end and follow again. */
  jumpToLatest(): void
}

/** How close to the end (px) still counts as "at the end". */
const AT_END = 48

/**
 * Keeps a chat transcript scrolled to its end while new content streams in, until the person scrolls up.
 *
 * @example
 * ```tsx
 * import type { ReactNode } from 'react'
 * import { useFollowLatest } from '@mcp-bridge/runtime/react'
 *
 * export function Transcript({ children }: { children: ReactNode }) {
 *   const follow = useFollowLatest()
 *   return (
 *     <>
 *       <main ref={follow.contentRef}>{children}</main>
 *       {!follow.following && <button onClick={follow.jumpToLatest}>Jump to latest</button>}
 *     </>
 *   )
 * }
 * ```
 */
export function useFollowLatest(): FollowLatest {
  const contentRef = useRef<HTMLElement | null>(null)
  const [following, setFollowing] = useState(true)
  const followingRef = useRef(true)

  const toEnd = useCallback(() => {
    const page = document.scrollingElement ?? document.documentElement
    window.scrollTo({ top: page.scrollHeight })
  }, [])

  useEffect(() => {
    const page = document.scrollingElement ?? document.documentElement
    let lastTop = page.scrollTop
    const onScroll = () => {
      const top = page.scrollTop
      const atEnd = page.scrollHeight - top - window.innerHeight <= AT_END
      // Only the user scrolling up stops following: the browser also scrolls by itself (scroll
      // anchoring moves the view down when content grows), and that must not.
      const next = atEnd ? true : top < lastTop - 2 ? false : followingRef.current
      lastTop = top
      followingRef.current = next
      setFollowing(next)
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    const content = contentRef.current
    const observer = new ResizeObserver(() => {
      if (followingRef.current) toEnd()
    })
    if (content) observer.observe(content)
    return () => {
      window.removeEventListener('scroll', onScroll)
      observer.disconnect()
    }
  }, [toEnd])

  const jumpToLatest = useCallback(() => {
    followingRef.current = true
    setFollowing(true)
    toEnd()
  }, [toEnd])

  return { contentRef, following, jumpToLatest }
}
