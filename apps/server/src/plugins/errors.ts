import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { parseLang, langHeader, type ErrorEnvelope } from '@nadi/api/common';
import { errorStatus, type ErrorReason } from '@nadi/api/errors';
import { fillErrorText } from '@nadi/api/error-texts/types';
import { isMessageKey, translate } from '../i18n/messages.ts';
import { AppError } from '../lib/app-error.ts';
import { isDependencyUnavailable } from '../lib/unavailable.ts';

export function requestLang(request: FastifyRequest) {
  return parseLang(request.headers[langHeader]);
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  reason: ErrorReason,
  fields?: Record<string, string>,
  params?: Record<string, string>,
): FastifyReply {
  const status = errorStatus[reason];
  const lang = requestLang(request);
  const body: ErrorEnvelope = { code: status.body, msg: fillErrorText(translate(lang, reason), params), data: null, reason };
  if (params) body.params = params;
  if (fields && Object.keys(fields).length > 0) {
    // Field problems the catalogue knows (amounts) are translated, and the first one becomes the
    // message, so a toast says what is wrong rather than only that something is.
    const translated = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, isMessageKey(v) ? translate(lang, v) : v]));
    body.fields = translated;
    const known = Object.values(fields).find(isMessageKey);
    if (known) body.msg = translate(lang, known);
  }
  return reply.code(status.http).type('application/json').send(body);
}

/** Maps any thrown error to the envelope. 5xx answers never carry the error's own text. */
function classify(error: FastifyError): { reason: ErrorReason; fields?: Record<string, string>; params?: Record<string, string> } {
  if (error instanceof AppError) return error.params ? { reason: error.reason, params: error.params } : { reason: error.reason };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'request';
      fields[path] = issue.message ?? 'invalid';
    }
    return { reason: 'BAD_REQUEST', fields };
  }
  if (isResponseSerializationError(error)) return { reason: 'INTERNAL' };
  if (error.statusCode === 429) return { reason: 'RATE_LIMITED' };
  if (error.statusCode === 413) return { reason: 'PAYLOAD_TOO_LARGE' };
  if (error.statusCode === 404) return { reason: 'NOT_FOUND' };
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return { reason: 'BAD_REQUEST' };
  if (isDependencyUnavailable(error)) return { reason: 'SERVICE_UNAVAILABLE' };
  return { reason: 'INTERNAL' };
}

export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const { reason, fields, params } = classify(error);
      if (reason === 'INTERNAL') request.log.error({ err: error }, 'request failed');
      else if (reason === 'SERVICE_UNAVAILABLE') request.log.warn({ err: error }, 'request failed: a dependency is unavailable');
      else request.log.info({ reason, detail: error.message }, 'request refused');
      return sendError(request, reply, reason, fields, params);
    });
  },
  { name: 'errors' },
);
