// What an import did, organization by organization: rows brought per Muster table, rows refused
// (each named with its reason), and what had no home in Muster, table by table with counts.

export interface Refusal {
  table: string;
  id: string;
  reason: string;
}

export class OrganizationReport {
  /** Muster table -> rows written (new or changed). */
  readonly written = new Map<string, number>();
  /** Muster table -> rows the source holds that were already there unchanged. */
  readonly unchanged = new Map<string, number>();
  /** Muster table -> rows an earlier run brought that were removed, Dispatch having deleted them since. */
  readonly removed = new Map<string, number>();
  readonly refused: Refusal[] = [];
  /** Source table (or `table.column`) -> rows whose data had no home. */
  readonly homeless = new Map<string, { rows: number; note: string }>();
  readonly notes: string[] = [];
  idMap: 'kept' | 'remapped' = 'remapped';

  constructor(readonly slug: string) {}

  count(map: Map<string, number>, table: string, n: number) {
    if (n > 0) map.set(table, (map.get(table) ?? 0) + n);
  }

  noHome(what: string, rows: number, note: string) {
    if (rows <= 0) return;
    const had = this.homeless.get(what);
    this.homeless.set(what, { rows: (had?.rows ?? 0) + rows, note: had?.note ?? note });
  }
}

/** The report as text, the way the command prints it. */
export function formatReport(reports: OrganizationReport[], dryRun: boolean): string {
  const out: string[] = [];
  for (const r of reports) {
    out.push(`Organization ${r.slug}${dryRun ? ' (dry run: nothing written)' : ''}: ids ${r.idMap}`);
    const tables = [...new Set([...r.written.keys(), ...r.unchanged.keys()])].sort();
    for (const t of tables) out.push(`  ${t}: ${r.written.get(t) ?? 0} written, ${r.unchanged.get(t) ?? 0} unchanged`);
    if (r.removed.size)
      out.push(
        `  Removed, deleted in Dispatch since the last run: ${[...r.removed]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')}`,
      );
    if (r.refused.length) {
      out.push(`  Refused rows (${r.refused.length}):`);
      for (const f of r.refused) out.push(`    ${f.table} ${f.id}: ${f.reason}`);
    }
    if (r.homeless.size) {
      out.push('  No home in Muster:');
      for (const [what, h] of [...r.homeless].sort(([a], [b]) => a.localeCompare(b))) out.push(`    ${what}: ${h.rows} row(s): ${h.note}`);
    }
    for (const n of r.notes) out.push(`  Note: ${n}`);
  }
  return out.join('\n');
}
