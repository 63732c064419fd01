import { CODE_ERROR, formatMessage, issueMessage, type FieldError } from '@ads/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';

/**
 * Turns every failure into the envelope of API.md with HTTP 200: AppError by its key,
 * validation by field, anything unexpected as a generic message (details only in the log).
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = req.lang ?? 'zh';
    if (err instanceof AppError) {
      const message = formatMessage(err.key, lang, err.params);
      return reply.status(200).send({ code: err.code, message, data: err.data !== undefined ? err.data : err.field ? { errors: [{ field: err.field, message }] } : null });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: FieldError[] = err.validation.map((v) => {
        const path = v.instancePath.split('/').filter(Boolean);
        const issue = { ...(v.params as object), code: v.keyword, path, message: v.message ?? '' };
        return { field: path.join('.') || err.validationContext || 'body', message: issueMessage(issue, lang) };
      });
      const detail = errors.map((e) => `${e.field} ${e.message}`).join('; ');
      return reply.status(200).send({ code: CODE_ERROR, message: formatMessage('VALIDATION', lang, { detail }), data: { errors } });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (err.statusCode === 400 && err instanceof SyntaxError)) {
      return reply.status(200).send({ code: CODE_ERROR, message: formatMessage('BAD_JSON', lang), data: null });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(200).send({ code: CODE_ERROR, message: formatMessage('PAYLOAD_TOO_LARGE', lang), data: null });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(200).send({ code: CODE_ERROR, message: formatMessage('UNSUPPORTED_MEDIA_TYPE', lang), data: null });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      req.log.info({ err }, 'client error');
      return reply.status(200).send({ code: CODE_ERROR, message: err.message, data: null });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.status(200).send({ code: CODE_ERROR, message: formatMessage('INTERNAL', lang), data: null });
  });
}
