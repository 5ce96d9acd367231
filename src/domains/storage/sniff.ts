// What a file is, from its bytes alone: the client's Content-Type and the file's name are never
// believed. Only types a browser will not run are accepted; markup (HTML, SVG, XML) is refused, as
// is anything unknown, so nothing stored can be served as a page even if a header were lost.

/** The accepted types, each known by how its bytes begin. */
const SIGNATURES: { type: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'application/pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
  // Also Office documents and other zip containers: downloaded, never opened by the browser.
  { type: 'application/zip', test: (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) },
  { type: 'application/gzip', test: (b) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b },
];

/** A control character: `allowed` are the ones text may hold (tab, line and form feed, carriage return). */
const isControl = (code: number, allowed: number[] = []) => (code < 0x20 || code === 0x7f) && !allowed.includes(code);
const TEXT_CONTROLS = [0x09, 0x0a, 0x0c, 0x0d];
function hasControl(text: string, allowed?: number[]) {
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i), allowed)) return true;
  return false;
}

/** Text whose first non-blank character opens a tag: HTML, SVG or XML, which a browser may run. */
const MARKUP = /^\uFEFF?\s*</;

/** The file's type, or `refused` with what it was taken for. */
export function sniff(bytes: Buffer): { type: string } | { refused: string } {
  for (const s of SIGNATURES) if (s.test(bytes)) return { type: s.type };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { refused: 'binary data of an unknown kind' };
  }
  if (hasControl(text, TEXT_CONTROLS)) return { refused: 'binary data of an unknown kind' };
  if (MARKUP.test(text)) return { refused: 'markup: HTML, SVG or XML' };
  if (/^\uFEFF?\s*[{[]/.test(text)) {
    try {
      JSON.parse(text.replace(/^\uFEFF/, ''));
      return { type: 'application/json' };
    } catch {
      // Text that only looks like JSON at first.
    }
  }
  return { type: 'text/plain; charset=utf-8' };
}

/** A file name without folders or control characters, at most 255 characters; `file` if nothing is left. */
export function cleanName(name: string | undefined): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...last]
    .filter((c) => c !== '"' && !isControl(c.charCodeAt(0)))
    .join('')
    .trim()
    .slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

/** Content-Disposition for a download: attachment always, the name in ASCII and in UTF-8 (RFC 6266). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
