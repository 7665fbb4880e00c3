/**
 * Who makes room when a server is full: the held calls (or 2025-11-25 sessions) are grouped by the
 * networks their client keys name (`networksOf`: coarse to fine, e.g. /48 > /56 > /64), and the
 * newcomer takes its place from the network that holds the most — judged at the first level where
 * the two part — so a thousand addresses of one network weigh as one client there.
 *
 * Descending from the coarsest level: where another network holds clearly more than the
 * newcomer's (two or more: one fewer is still as many as the newcomer would hold), that one gives up
 * its oldest entry, found by following its busiest network down; where none does, the contest is
 * inside the newcomer's own network (its neighbours make room, not strangers). And a newcomer
 * holding nothing is never refused while anything could be evicted: if fairness named no one, the
 * most-represented network gives way anyway.
 */
import { networksOf } from '../http/client-address.ts'

/** What one client holds, as `roomFor` weighs it. */
export interface Holding<T> {
  /** The client key (`ClientKey`): its networks, coarse to fine, then the client. */
  client: string
  /** How many places it holds (calls, sessions). */
  held: number
  /** The one of them that would make room — held longest, idle — or undefined when none may be evicted. */
  oldest: T | undefined
  /** When `oldest` was last used or began: of two networks holding as many, the longer idle gives way. */
  since: number
}

interface Entry<H> {
  holding: H
  levels: string[]
}

interface Group<H> {
  entries: Entry<H>[]
  held: number
  /** Its evictable entry idle longest, if any. */
  idlest: Entry<H> | undefined
}

/** The holding whose `oldest` makes room for `newcomer`, or undefined when it should be refused (see the module comment). */
export function roomFor<H extends Holding<unknown>>(newcomer: string, holdings: readonly H[]): H | undefined {
  const path = networksOf(newcomer)
  const all = holdings.map((holding) => ({ holding, levels: networksOf(holding.client) }))
  const fair = fairVictim(path, all)
  if (fair) return fair
  // Fairness refuses a client whose network already holds the most — but not one holding nothing.
  const own = all.filter((e) => e.holding.client === newcomer).reduce((n, e) => n + e.holding.held, 0)
  return own === 0
    ? busiestOldest(
        all.filter((e) => e.holding.client !== newcomer),
        0,
      )
    : undefined
}

function fairVictim<H extends Holding<unknown>>(path: string[], all: Entry<H>[]): H | undefined {
  let pool = all
  for (let level = 0; level < path.length; level++) {
    const groups = groupAt(pool, level)
    const mine = groups.get(levelOf(path, level))
    const mineHeld = mine?.held ?? 0
    // Clearly more: with one fewer it still holds as many as the newcomer would, so the two do not take turns evicting each other.
    const richer = [...groups.values()].filter((g) => g !== mine && g.held > mineHeld + 1 && g.idlest)
    const best = pickBusiest(richer)
    if (best) return busiestOldest(best.entries, level + 1)
    // No stranger holds clearly more: the contest is among the newcomer's own neighbours.
    if (!mine || level === path.length - 1) return undefined
    pool = mine.entries
  }
  return undefined
}

/** Follow the network holding the most (with something evictable) down to a client; its oldest entry. */
function busiestOldest<H extends Holding<unknown>>(pool: Entry<H>[], level: number): H | undefined {
  let entries = pool
  for (let l = level; ; l++) {
    const best = pickBusiest([...groupAt(entries, l).values()].filter((g) => g.idlest))
    if (!best) return undefined
    // One client left (or nothing finer to tell them apart by): its entry idle longest.
    if (best.entries.every((e) => e.levels.length <= l + 1)) return best.idlest!.holding
    entries = best.entries
  }
}

/** The group holding the most; of equals, the one whose evictable entry is idle longest. */
function pickBusiest<H extends Holding<unknown>>(groups: Group<H>[]): Group<H> | undefined {
  let best: Group<H> | undefined
  for (const g of groups) {
    if (!best || g.held > best.held || (g.held === best.held && g.idlest!.holding.since < best.idlest!.holding.since)) best = g
  }
  return best
}

/** A key's network at `level`; a key with fewer levels is its own finest one. */
function levelOf(levels: string[], level: number): string {
  return levels[Math.min(level, levels.length - 1)]!
}

function groupAt<H extends Holding<unknown>>(entries: Entry<H>[], level: number): Map<string, Group<H>> {
  const groups = new Map<string, Group<H>>()
  for (const entry of entries) {
    const key = levelOf(entry.levels, level)
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { entries: [], held: 0, idlest: undefined }))
    group.entries.push(entry)
    group.held += entry.holding.held
    if (entry.holding.oldest !== undefined && (!group.idlest || entry.holding.since < group.idlest.holding.since)) group.idlest = entry
  }
  return groups
}
