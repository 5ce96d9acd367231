// The order between Muster's folders, checked by `npm run lint`: one dependency-cruiser run over
// src/ reports every import against the rules of .dependency-cruiser.cjs (file cycles included),
// then the folders of that same run must import in no circle (lint/folder-cycles.ts).
import { cruise, format, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { type AllowedImport, type Import, problems } from './folder-cycles.ts';

// Imports that close a circle between folders and are allowed for now, each until it is gone or no
// longer closes a circle (the check then fails, so an entry cannot outlive its import). None today.
const ALLOWED: AllowedImport[] = [];

const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
const cruised = await cruise(['src'], options, {}, { tsConfig: extractTSConfig(options.tsConfig?.fileName ?? 'tsconfig.json') });
const result = cruised.output as ICruiseResult;

const report = await format(result, { outputType: 'err' });
process.stdout.write(String(report.output));

const imports: Import[] = result.modules.flatMap((m) =>
  m.dependencies.filter((d) => d.resolved.startsWith('src/') && m.source.startsWith('src/')).map((d) => ({ from: m.source, to: d.resolved })),
);
const found = problems(imports, ALLOWED);
for (const p of found) process.stderr.write(`\n${p}\n`);
if (!found.length) process.stdout.write(`✔ no folders import each other in a circle (${ALLOWED.length} allowed imports still close one)\n`);
process.exitCode = report.exitCode || (found.length ? 1 : 0);
