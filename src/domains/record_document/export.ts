// A document's text exported as a file: Markdown as written, or a PDF laid out from it (headings,
// list items and paragraphs, wrapped to the page; tables and emphasis as their plain text). The
// PDF's standard font writes Latin-1 text: other characters print as "?".
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import type { Ctx } from '../../server/context.ts';
import { findDocument } from './content.ts';

const PAGE = { width: 595, height: 842, margin: 56 };

/** Characters the standard fonts cannot encode become "?". */
const latin1 = (text: string) => text.replace(/[^\t\n\r\x20-\x7e\xa0-\xff]/g, '?');

/** Inline Markdown as plain text: emphasis, code and links without their marks. */
const plain = (text: string) =>
  text
    .replace(/\[([^\]]*)\]\(([^)]*)\)/g, '$1 ($2)')
    .replace(/[*_`]{1,3}([^*_`]+)[*_`]{1,3}/g, '$1')
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .replace(/\s*\|\s*/g, '   ');

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

export async function markdownToPdf(title: string, markdown: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(latin1(title));
  pdf.setProducer('Muster');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const write = (text: string, font: PDFFont, size: number, indent = 0, gap = 4) => {
    for (const line of wrap(latin1(text), font, size, width - indent)) {
      if (y - size < PAGE.margin) {
        page = pdf.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - PAGE.margin;
      }
      y -= size;
      page.drawText(line, { x: PAGE.margin + indent, y, size, font });
      y -= gap;
    }
  };
  for (const raw of markdown.split('\n')) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
    const item = /^(\s*)[-*+]\s+(\[[ xX]\]\s+)?(.*)$/.exec(raw);
    if (heading) {
      y -= 6;
      write(plain(heading[2]), bold, [20, 16, 13, 12, 11, 11][heading[1].length - 1], 0, 6);
    } else if (item) {
      const box = item[2] ? (item[2].trim().toLowerCase() === '[x]' ? '[x] ' : '[ ] ') : '- ';
      write(box + plain(item[3]), regular, 10.5, 12 + item[1].length * 4);
    } else if (/^\|?\s*:?-{3,}/.test(raw)) {
      // a table's rule line
    } else if (raw.trim() === '') y -= 6;
    else write(plain(raw), regular, 10.5);
  }
  return pdf.save();
}

const fileName = (name: string, ext: string) => `${name.replace(/[^A-Za-z0-9._ -]+/g, '_').trim() || 'document'}.${ext}`;

export async function exportDocument(ctx: Ctx, id: number, format: 'markdown' | 'pdf') {
  const doc = await findDocument(ctx.db, ctx, id);
  const text = doc.content ?? '';
  if (format === 'pdf') return { contentType: 'application/pdf', filename: fileName(doc.name, 'pdf'), body: Buffer.from(await markdownToPdf(doc.name, text)) };
  return { contentType: 'text/markdown; charset=utf-8', filename: fileName(doc.name, 'md'), body: text };
}
