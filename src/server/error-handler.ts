// Writes every error as the contract's body. Known errors come from the catalogue (errors.ts);
// Fastify's own (validation, body parsing, size) are translated here; a database that cannot
// serve (down, restarting, out of connections, too slow) answers 503 with Retry-After; anything
// else is a bug, answered with Dispatch's opaque 500. Logs name the route and the error's code and
// class, never the request's values or the statement's parameters.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { isUniqueViolation, loggableError, pgError, unavailableCause, violatedColumn } from '../db/errors.ts';
import { ApiError, errors, exists, validationError } from './errors.ts';
import type { StaticHandler } from './static-files.ts';
import { toValidationItems } from './validation.ts';

function translate(err: FastifyError & { validationContext?: string }, bodyLimit: number): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err.validation) return validationError(toValidationItems(err.validation, err.validationContext ?? 'body'));
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.unsupportedMediaType(String(err.message.split(': ').at(-1)));
  }
  const pg = pgError(err);
  if (pg?.code?.startsWith('22')) {
    // A data exception (a NUL byte in text, a number out of range...): the input cannot be stored.
    return validationError([{ loc: ['body'], msg: `Invalid value: ${(pg as { message?: string }).message ?? pg.code}`, type: 'value_error' }]);
  }
  if (isUniqueViolation(err)) {
    const col = violatedColumn(err) ?? 'name';
    return exists(col, `A record with this ${col} already exists.`);
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError(err.statusCode, [{ msg: err.message }]);
  }
  return null;
}

/** `staticFiles`: a built web UI answers the paths outside /api/ that no route serves (static-files.ts). */
export function installErrorHandling(app: FastifyInstance, bodyLimit: number, staticFiles?: StaticHandler) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let known = translate(err, bodyLimit);
    const where = { method: request.method, route: request.routeOptions?.url ?? 'unknown' };
    if (!known) {
      const cause = unavailableCause(err);
      if (cause) {
        request.log.warn({ ...where, cause }, 'database unavailable');
        known = errors.databaseUnavailable();
      } else {
        request.log.error({ ...where, error: loggableError(err) }, 'unhandled error');
      }
    }
    const e = known ?? errors.unknown();
    return reply.status(e.statusCode).headers(e.headers).type('application/json').serializer(JSON.stringify).send(e.body);
  });

  // A second router that knows every route's path, to tell "wrong method" (405) from "no such
  // path" (404), which Fastify's router does not.
  const paths = FindMyWay({ ignoreTrailingSlash: true });
  const noop = () => {};
  app.addHook('onRoute', (route) => {
    for (const method of ([] as string[]).concat(route.method)) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      try {
        // Fastify's route methods are any string; this router types its own list, which holds every method routes use.
        paths.on(method as FindMyWay.HTTPMethod, route.url, noop);
      } catch {
        /* already known */
      }
    }
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (staticFiles && (await staticFiles(request, reply)) === 'answered') return reply;
    const path = request.url.split('?')[0];
    const methods = (['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const).filter((m) => m !== request.method && paths.find(m, path));
    const e = methods.length ? errors.methodNotAllowed() : errors.routeNotFound();
    if (methods.length) reply.header('allow', methods.join(', '));
    return reply.status(e.statusCode).send(e.body);
  });
}
