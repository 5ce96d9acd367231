import { afterEach, describe, expect, it, vi } from 'vitest';
import { csvField, toCsv } from '../../lib/csv.ts';
import { fetchAllIncidents, INCIDENT_CSV_COLUMNS } from './csv.ts';
import type { Incident } from './types.ts';

describe('CSV writer', () => {
  it('quotes fields with commas, quotes, line breaks and edge spaces, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r\nlf')).toBe('"cr\r\nlf"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(-3)).toBe('-3');
  });

  it('keeps spreadsheets from running text as formulas', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
  });

  it('writes a header and one CRLF line per row', () => {
    const columns = [
      { header: 'name', value: (r: { n: string; t: string }) => r.n },
      { header: 'title, short', value: (r: { n: string; t: string }) => r.t },
    ];
    expect(toCsv(columns, [{ n: 'inc-1', t: 'DB "down", again' }])).toBe('name,"title, short"\r\ninc-1,"DB ""down"", again"\r\n');
    expect(toCsv(columns, [])).toBe('name,"title, short"\r\n');
  });

  it('writes incidents with their nested names, tags and people', () => {
    const incident = {
      id: 1,
      name: 'default-1',
      title: 'Slow, very slow',
      description: 'Line one\nline two',
      status: 'Active',
      visibility: 'Open',
      reported_at: '2026-10-01T10:00:00Z',
      stable_at: null,
      closed_at: null,
      project: { id: 1, name: 'default' },
      incident_type: { id: 1, name: 'Default' },
      incident_priority: { id: 1, name: 'High' },
      incident_severity: { id: 1, name: 'Low' },
      commander: { individual: { email: 'cmd@corp.example' } },
      reporter: null,
      tags: [
        { id: 1, name: 'db' },
        { id: 2, name: 'eu' },
      ],
      total_cost: 120,
    } satisfies Incident;
    const [header, line] = toCsv(INCIDENT_CSV_COLUMNS, [incident]).split('\r\n');
    expect(header).toBe(
      'name,title,status,priority,severity,type,project,commander,reporter,visibility,reported_at,stable_at,closed_at,tags,total_cost,description',
    );
    expect(line).toBe(
      'default-1,"Slow, very slow",Active,High,Low,Default,default,cmd@corp.example,,Open,2026-10-01T10:00:00Z,,,db; eu,120,"Line one\nline two"',
    );
  });
});

describe('export of all matching incidents', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads page after page with the same filter and sort until the total', async () => {
    const pages: URLSearchParams[] = [];
    const total = 450;
    vi.stubGlobal('fetch', async (url: string) => {
      const params = new URL(url, 'http://x').searchParams;
      pages.push(params);
      const page = Number(params.get('page'));
      const size = Number(params.get('itemsPerPage'));
      const count = Math.max(0, Math.min(size, total - (page - 1) * size));
      const items = Array.from({ length: count }, (_, i) => ({ id: (page - 1) * size + i + 1 }));
      return new Response(JSON.stringify({ items, total }), { status: 200 });
    });
    const seen: number[] = [];
    const rows = await fetchAllIncidents(
      'default',
      { sortBy: 'title', descending: true, q: 'db', filter: { and: [{ or: [{ field: 'status', op: '==', value: 'Active' }] }] } },
      {
        onProgress: (done) => seen.push(done),
      },
    );
    expect(rows).toHaveLength(total);
    expect(pages.map((p) => p.get('page'))).toEqual(['1', '2', '3']);
    for (const p of pages) {
      expect(p.get('sortBy[]')).toBe('title');
      expect(p.get('descending[]')).toBe('true');
      expect(p.get('q')).toBe('db');
      expect(JSON.parse(p.get('filter')!)).toEqual({ and: [{ or: [{ field: 'status', op: '==', value: 'Active' }] }] });
      expect(p.getAll('include[]')).toContain('commander.individual.email');
    }
    expect(seen).toEqual([200, 400, 450]);
  });
});
