import type { TestProject } from 'vitest/node';
import { startStack } from './stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    rpcUrl: string;
    rootInviteCode: string;
    /** The built web app, for a suite that starts a server of its own (mining: short epochs). */
    webDist: string;
    /** The built operator console (served under /admin). */
    adminDist: string;
  }
}

/** Starts the whole stack the way `npm start` does, on free ports and a throw-away data folder. */
export default async function setup(project: TestProject) {
  // A quiet stack: no demo market maker, no demo devices (scripts/start.ts).
  const stack = await startStack({ name: 'e2e', rootInviteCode: 'E2EROOT1', env: { DEMO_MARKET: 'off' } });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('rpcUrl', stack.rpcUrl);
  project.provide('rootInviteCode', stack.rootInviteCode);
  project.provide('webDist', stack.webDist);
  project.provide('adminDist', stack.adminDist);

  return async () => {
    if (!(await stack.stop())) throw new Error('the stack did not stop within 15 s of Ctrl-C');
  };
}
