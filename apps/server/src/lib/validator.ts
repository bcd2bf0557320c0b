import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** Whether any string in a parsed input (nested objects and arrays, walked without recursion) holds a NUL. */
export function hasNulText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) stack.push(...Object.keys(v), ...Object.values(v));
  }
  return false;
}

/**
 * The contracts' zod validation, and one rule no contract can state for every text field: no NUL
 * character. PostgreSQL's text cannot hold one, so such a value used to reach the database and fail
 * there as a 500 (found by the contract fuzzer); it is now a plain BAD_REQUEST, like any other
 * malformed field. Runs where validation runs, after an operator route's role check.
 */
export const validatorWithoutNul: FastifySchemaCompiler<z.core.$ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data: unknown) => {
    const result = validate(data) as { value?: unknown; error?: Error };
    if (result.error === undefined && hasNulText(result.value)) return { error: new Error('text may not contain a NUL character') };
    return result as ReturnType<typeof validate>;
  };
};
