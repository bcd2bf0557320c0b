// Every route object of the contract package, found by walking its modules' exports, so a test over
// "every route" covers a route added later without being touched (tsc has no import.meta.glob).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Route } from '@nadi/api/route';

const contractDir = join(import.meta.dirname, '../../../../packages/api/src');

function isRoute(value: unknown): value is Route {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;
}

/** Every contract route by "METHOD path" (loaded once per test file, before its tests are collected). */
export async function loadContractRoutes(): Promise<Map<string, Route>> {
  const modules = await Promise.all(
    readdirSync(contractDir)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => import(pathToFileURL(join(contractDir, file)).href) as Promise<Record<string, unknown>>),
  );
  const found = new Map<string, Route>();
  for (const mod of modules) {
    for (const exported of Object.values(mod)) {
      if (typeof exported !== 'object' || exported === null) continue;
      for (const value of Object.values(exported)) if (isRoute(value)) found.set(`${value.method} ${value.path}`, value);
    }
  }
  return found;
}
