import type { z } from 'zod/mini';

/**
 * The operator console's roles (docs/operator.md): a viewer reads, an operator also runs the daily
 * work (withdrawal reviews, shipping, notices, activation codes), an admin also changes products,
 * tiers, savings products, economy parameters and roles. Each includes the ones before it.
 */
export const operatorRoles = ['viewer', 'operator', 'admin'] as const;
export type OperatorRole = (typeof operatorRoles)[number];

/**
 * The abuse-limit class of a route (docs/limits.md). A contract names it only where the default
 * would be wrong: `money` on every POST that moves money, `trade` on placing and cancelling spot
 * orders (an exchange's pace, many a second), `background` on the calls devices and app starts make
 * all day (the heartbeat, the config). Otherwise the server derives it: auth/* routes are `signIn`,
 * other GETs `read`, other POSTs `write`.
 */
export const limitClasses = ['signIn', 'money', 'trade', 'write', 'read', 'background'] as const;
export type LimitClass = (typeof limitClasses)[number];

/**
 * One endpoint of the contract: the server registers it, the web calls it, both from this object
 * (the ts-rest idea without the library). `input` is the query for GET and the JSON body otherwise.
 */
export interface Route<
  M extends 'GET' | 'POST' = 'GET' | 'POST',
  I extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  O extends z.ZodMiniType = z.ZodMiniType,
  A extends boolean = boolean,
> {
  method: M;
  path: string;
  input: I;
  response: O;
  /** True when the route needs a signed-in session. */
  auth: A;
  summary: string;
  /** Operator routes: the least role that may call it; the server checks it before the handler. */
  role?: OperatorRole;
  /** The abuse-limit class when the method's default is wrong (see limitClasses). */
  limitClass?: LimitClass;
}

export function route<M extends 'GET' | 'POST', I extends z.ZodMiniType | undefined, O extends z.ZodMiniType, A extends boolean>(
  r: Route<M, I, O, A>,
): Route<M, I, O, A> {
  return r;
}

/** The route's abuse-limit class: the contract's own, else from its path and method. */
export function limitClassOf(r: Pick<Route, 'method' | 'path' | 'limitClass'>): LimitClass {
  if (r.limitClass) return r.limitClass;
  if (r.path.startsWith('/api/v1/auth/')) return 'signIn';
  return r.method === 'GET' ? 'read' : 'write';
}

export type RouteInput<R extends Route> = R['input'] extends z.ZodMiniType ? z.input<R['input']> : void;
export type RouteData<R extends Route> = z.output<R['response']> extends { data: infer D } ? D : never;
