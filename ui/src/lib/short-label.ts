// Short labels people say on a call (`INC-14`, `CASE-4`): the record's number, the last part of its
// name (`muster-default-default-14`), so an incident and a case of the same number are told apart.
// Only shown: names stay as the API has them, and links use them.

export type LabelKind = 'INC' | 'CASE';

export function shortLabel(kind: LabelKind, record: { name?: string | null; id: number }): string {
  const number = /(\d+)$/.exec(record.name ?? '')?.[1];
  return `${kind}-${number ?? record.id}`;
}
