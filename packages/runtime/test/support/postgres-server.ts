/**
 * A real PostgreSQL server (Debian's `postgresql` package; `.ci/run` installs it) on a free
 * 127.0.0.1 port, for tests: `initdb` into a temp folder, then `postgres` on it. Postgres refuses
 * to run as root, so under root (CI) both run as the package's `postgres` user. Durability
 * settings are off (fsync): the tests kill app servers, never this one. `stop()` ends it and
 * removes its folder.
 */
import { execFileSync, spawn } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { freePort, stopServer } from './redis-server.ts'

export interface PostgresProcess {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string
  port: number
  /**
   * A `pg` pool on this server for a test's own queries, ended by `stop()`. Use it rather than a
   * bare `new pg.Pool`: `pool.end()` resolves before its sockets close, so a backend can still be
   * connected when the server shuts down and tell its client "terminating connection due to
   * administrator command" — an idle client's error, which a pool without an `error` listener
   * throws as an uncaught exception (it failed a CI run that way).
   */
  pool(config?: Omit<pg.PoolConfig, 'connectionString'>): pg.Pool
  stop(): Promise<void>
}

/** Where Debian keeps the server's programs (not on PATH): the newest version installed. */
function binary(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(':')) if (existsSync(join(dir, name))) return join(dir, name)
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : []
  for (const version of versions) if (existsSync(join(root, version, 'bin', name))) return join(root, version, 'bin', name)
  throw new Error(`${name} not found: install PostgreSQL (apt-get install -y postgresql)`)
}

/** Under root, the `postgres` user's ids (Postgres will not run as root). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'))
  if (!line) throw new Error('running as root and there is no postgres user to run PostgreSQL as: install PostgreSQL (apt-get install -y postgresql)')
  const [, , uid, gid] = line.split(':')
  return { uid: Number(uid), gid: Number(gid) }
}

export async function startPostgres(): Promise<PostgresProcess> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-postgres-'))
  const user = runAs()
  if (user) chownSync(dir, user.uid, user.gid)
  const data = join(dir, 'data')
  execFileSync(binary('initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], {
    stdio: 'pipe',
    ...user,
  })
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
  const child = spawn(binary('postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], ...user })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`postgres did not start within 30 s:\n${output}`)), 30_000)
    const read = (chunk: Buffer) => {
      output += chunk
      if (output.includes('database system is ready to accept connections')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`could not start postgres: ${error.message}`))
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`postgres exited (${code}):\n${output}`))
    })
  })
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const pools: pg.Pool[] = []
  return {
    url,
    port,
    pool(config) {
      const pool = new pg.Pool({ ...config, connectionString: url })
      pool.on('error', () => {}) // the shutdown's goodbye to an idle client (see above); a query's own error still reaches it
      pools.push(pool)
      return pool
    },
    async stop() {
      await Promise.all(pools.splice(0).map((p) => (p.ended || p.ending ? undefined : p.end())))
      // Fast shutdown: open connections are cut, nothing waits for clients.
      await stopServer(child, dir, 'SIGINT')
    },
  }
}
