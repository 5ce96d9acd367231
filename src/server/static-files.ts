// A built web UI served from a directory (MUSTER_STATIC_DIR, `--static-dir`), as Dispatch serves its
// STATIC_DIR: GET and HEAD of a file of the directory answer it, and any other path outside /api/
// answers index.html, so that a single-page app can route in the browser. /api/... never reaches it.
//
// - Caching: a file whose name carries a content hash (Vite's `name-Hash123x.js`) never changes,
//   so it is cached for a year as immutable; everything else, index.html first, is `no-cache`
//   (revalidated on every use, answered 304 while its ETag or Last-Modified still holds).
// - Safety: the path is decoded once and resolved inside the directory; `..`, dotfiles (`.env`,
//   `.git`), NUL bytes and symbolic links that lead outside answer 404, never a file.
// - A missing file that looks like an asset (`.js`, `.css`, `.png`...) answers 404 rather than
//   index.html: a browser would otherwise run a page's HTML as a script.
//
// Small on purpose (node:fs streams): no compression or ranges; put a proxy in front for those.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** `name-<hash>.ext` or `name.<hash>.ext`: 8 or more base64url characters, with a digit or a capital (a word has neither). */
const HASHED = /[-.]([A-Za-z0-9_-]{8,})\.[A-Za-z0-9]+$/;
export const isHashed = (name: string) => {
  const hash = HASHED.exec(name)?.[1];
  return !!hash && /[0-9A-Z]/.test(hash);
};

export class StaticDirError extends Error {}

/** Muster's own web UI, built from ui/ into ui/dist and shipped with the package. */
export const BUILT_IN_UI = fileURLToPath(new URL('../../ui/dist', import.meta.url));

/** The built-in UI's directory, or undefined when this copy has none (a checkout without the build). */
export const builtInUi = (): string | undefined => (existsSync(join(BUILT_IN_UI, 'index.html')) ? BUILT_IN_UI : undefined);

/** What the not-found handler does with a request: the file was answered, or the API's 404 it is. */
export type StaticHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<'answered' | 'not-found'>;

interface Found {
  path: string;
  size: number;
  mtime: Date;
}

/** Throws StaticDirError unless `dir` is a directory with an index.html; returns its absolute path. */
export function checkStaticDir(dir: string): string {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new StaticDirError(`the static directory ${root} (MUSTER_STATIC_DIR, --static-dir) is not a directory`);
  if (!existsSync(join(root, 'index.html'))) throw new StaticDirError(`the static directory ${root} (MUSTER_STATIC_DIR, --static-dir) has no index.html`);
  return root;
}

/** The handler for `dir`; throws StaticDirError when it is not a directory with an index.html. */
export function staticFiles(dir: string): StaticHandler {
  const root = checkStaticDir(dir);
  const realRoot = realpath(root);

  /** The regular file at these path segments, inside the directory once links are followed; else undefined. */
  async function find(segments: string[]): Promise<Found | undefined> {
    const path = resolve(root, ...segments);
    if (path !== root && !path.startsWith(root + sep)) return undefined;
    try {
      const real = await realpath(path);
      const base = await realRoot;
      if (!real.startsWith(base + sep)) return undefined;
      const s = await stat(real);
      return s.isFile() ? { path: real, size: s.size, mtime: s.mtime } : undefined;
    } catch {
      return undefined;
    }
  }

  return async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return 'not-found';
    const raw = request.url.split('?')[0];
    if (raw === '/api' || raw.startsWith('/api/')) return 'not-found';
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return 'not-found';
    }
    const segments = decoded.split(/[/\\]/).filter((s) => s !== '');
    if (decoded.includes('\0') || segments.some((s) => s.startsWith('.'))) return 'not-found';

    let file = segments.length ? await find(segments) : undefined;
    if (!file) {
      const last = segments.at(-1) ?? '';
      const ext = extname(last).toLowerCase();
      if (Object.hasOwn(TYPES, ext) && ext !== '.html') return 'not-found';
      file = await find(['index.html']);
      if (!file) return 'not-found';
    }
    return send(request, reply, file);
  };
}

function send(request: FastifyRequest, reply: FastifyReply, file: Found): 'answered' {
  const name = file.path.slice(file.path.lastIndexOf(sep) + 1);
  const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtime.getTime()).toString(16)}"`;
  const modified = new Date(Math.floor(file.mtime.getTime() / 1000) * 1000);
  reply
    .header('content-type', TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream')
    .header('cache-control', isHashed(name) ? IMMUTABLE : REVALIDATE)
    .header('etag', etag)
    .header('last-modified', modified.toUTCString())
    .header('x-content-type-options', 'nosniff');
  const match = request.headers['if-none-match'];
  const since = request.headers['if-modified-since'];
  const fresh = match !== undefined ? match.split(',').some((t) => t.trim() === etag) : since !== undefined && modified.getTime() <= Date.parse(since);
  if (fresh) reply.code(304).send();
  else
    reply
      .code(200)
      .header('content-length', file.size)
      .send(request.method === 'HEAD' ? undefined : createReadStream(file.path));
  return 'answered';
}
