// The headers a browser needs to keep Muster's pages safe (@fastify/helmet), on every answer: a
// Content-Security-Policy that runs only Muster's own scripts (the web UI keeps its session token in
// localStorage, so a script injected into the page is what must never run), no framing by other
// sites (clickjacking), no MIME sniffing, no referrer leaving the origin.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
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
}

export async function installSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions) {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'unsafe-eval': the web UI's forms compile the API's own shapes with Ajv, which makes functions
        // from text. Injected markup still runs nothing: no inline script but the hashed ones.
        scriptSrc: ["'self'", "'unsafe-eval'", ...inlineScriptHashes(opts.staticDir)],
        // Mantine and Swagger UI set style attributes; styles cannot run code.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(opts.connectTo ?? [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // The page itself is never upgraded here: Muster may be served over plain HTTP on loopback.
        upgradeInsecureRequests: null,
      },
    },
    // HSTS is the TLS terminator's to send (Muster may run on plain HTTP behind it or on loopback).
    strictTransportSecurity: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
  });
}
