/**
 * Store drivers (`libsql`, `ioredis`) are optional peer dependencies: an app that keeps calls in
 * memory installs neither. They are loaded when a store is created, and a missing one is a clear
 * error that says what to install.
 */
import { StoreDriverMissingError } from '../../errors/store-errors.ts'

export async function loadDriver<T>(factory: string, name: string, pick: (module: Record<string, unknown>) => unknown): Promise<T> {
  let module: Record<string, unknown>
  try {
    // A package name known only at run time: bundlers (Vite's SSR transform) leave it to Node.
    module = (await import(/* @vite-ignore */ name)) as Record<string, unknown>
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') throw new StoreDriverMissingError(factory, name, error)
    throw error
  }
  return pick(module) as T
}
