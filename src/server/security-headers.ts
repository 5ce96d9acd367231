// The headers a browser needs to keep Muster's pages safe, on every answer: a
// Content-Security-Policy that runs only Muster's own scripts (the web UI keeps its session token in
// localStorage, so a script injected into the page is what must never run), no framing by other
// sites (clickjacking), no MIME sniffing, no referrer leaving the origin.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The CSP hashes of the inline scripts of a web UI's index.html (Muster's sets the colour scheme
 * before the first paint): each such script is allowed by its exact text, nothing else inline.
 */
export function inlineScriptHashes(staticDir: string | undefined): string[] {
  if (!staticDir) return [];
  let html: string;
  try {
    html = readFileSync(join(staticDir, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  const hashes: string[] = [];
  for (const [, attributes, body] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes) || body.trim() === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

export interface SecurityHeaderOptions {
  /** The directory of the web UI served at / (its inline scripts are allowed by hash). */
  staticDir?: string;
  /** Origins the page may also call (an OpenID provider a browser-side client talks to). */
  connectTo?: string[];
  /** The operator's own policy, replacing the one made here (MUSTER_CONTENT_SECURITY_POLICY). */
  policy?: string;
}

/** The headers, computed once: they are the same on every answer. */
export function securityHeaders(opts: SecurityHeaderOptions): Record<string, string> {
  const policy = {
    'default-src': ["'self'"],
    // 'unsafe-eval': the web UI's forms compile the API's own shapes with Ajv, which makes functions
    // from text. Injected markup still runs nothing: no inline script but the hashed ones.
    'script-src': ["'self'", "'unsafe-eval'", ...inlineScriptHashes(opts.staticDir)],
    // Mantine and Swagger UI set style attributes; styles cannot run code.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(opts.connectTo ?? [])],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return {
    'content-security-policy':
      opts.policy ??
      Object.entries(policy)
        .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
        .join('; '),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'x-permitted-cross-domain-policies': 'none',
    // HSTS is the TLS terminator's to send (Muster may run on plain HTTP behind it or on loopback).
  };
}

/**
 * Sets the headers on every answer, the web UI's files and the API's JSON alike, with one call per
 * request (a middleware chain such as helmet's cost 15-25% of a small GET's throughput, measured).
 */
export function installSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions) {
  const headers = securityHeaders(opts);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
