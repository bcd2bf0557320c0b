import type { z } from 'zod';

/**
 * The operator console's roles (docs/operator.md): a viewer reads, an operator also runs the daily
 * work (withdrawal reviews, shipping, notices, activation codes), an admin also changes products,
 * tiers, savings products, economy parameters and roles. Each includes the ones before it.
 */
export const operatorRoles = ['viewer', 'operator', 'admin'] as const;
export type OperatorRole = (typeof operatorRoles)[number];

/**
 * One endpoint of the contract: the server registers it, the web calls it, both from this object
 * (the ts-rest idea without the library). `input` is the query for GET and the JSON body otherwise.
 */
export interface Route<
  M extends 'GET' | 'POST' = 'GET' | 'POST',
  I extends z.ZodType | undefined = z.ZodType | undefined,
  O extends z.ZodType = z.ZodType,
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
}

export function route<M extends 'GET' | 'POST', I extends z.ZodType | undefined, O extends z.ZodType, A extends boolean>(
  r: Route<M, I, O, A>,
): Route<M, I, O, A> {
  return r;
}

export type RouteInput<R extends Route> = R['input'] extends z.ZodType ? z.input<R['input']> : void;
export type RouteData<R extends Route> = z.output<R['response']> extends { data: infer D } ? D : never;
