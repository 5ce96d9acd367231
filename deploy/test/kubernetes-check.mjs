// Checks rendered Kubernetes objects (argument 1) with kubernetes-models (argument 2, its folder):
// each object against the API's JSON schema (types, formats, required fields) and, compiled as
// TypeScript against the models' interfaces, for fields the API does not have (a misspelt probe
// setting is otherwise silently dropped by the server). Then what ties them to Muster: probe paths,
// ports, selectors, the Secret, and that each container's command is one the `muster` CLI accepts
// (also the Dockerfile's and deploy/compose.yaml's). Exits 1 listing every problem.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { parse, parseAllDocuments } from 'yaml';

const [renderedFile, modelsDir] = process.argv.slice(2);
const problems = [];
const docs = parseAllDocuments(readFileSync(renderedFile, 'utf8')).map((d) => {
  for (const e of d.errors) problems.push(`YAML: ${e.message}`);
  return d.toJS();
});
const label = (o) => `${o.kind}/${o.metadata?.name}`;
const modelPath = (o) => join(modelsDir, o.apiVersion.includes('/') ? o.apiVersion : `v1`, `${o.kind}.js`);

// 1. The API's schema.
for (const o of docs) {
  const Model = (await import(pathToFileURL(modelPath(o)).href))[o.kind];
  try {
    new Model(o).validate();
  } catch (err) {
    problems.push(`${label(o)}: ${err.message}`);
  }
}

// 2. Unknown fields: each object as a literal of its model's interface.
const dir = mkdtempSync(join(tmpdir(), 'muster-k8s-'));
const source = docs
  .map((o, i) => `import type { I${o.kind} as T${i} } from ${JSON.stringify(modelPath(o))};\nexport const o${i}: T${i} = ${JSON.stringify(o, null, 1)};`)
  .join('\n');
const file = join(dir, 'objects.ts');
writeFileSync(file, source);
const program = ts.createProgram([file], {
  strict: true,
  noEmit: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
  types: [],
});
for (const d of ts.getPreEmitDiagnostics(program)) {
  const at =
    d.file && d.start !== undefined
      ? d.file.text
          .slice(0, d.start)
          .match(/export const o(\d+)/g)
          ?.pop()
      : undefined;
  const o = at ? docs[Number(at.slice('export const o'.length))] : undefined;
  problems.push(`${o ? label(o) : 'objects'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}
rmSync(dir, { recursive: true });

// 3. Muster's side.
const byKind = (kind) => docs.filter((o) => o.kind === kind);
const secrets = new Set(byKind('Secret').map((o) => o.metadata.name));
const commands = [];
for (const o of [...byKind('Deployment'), ...byKind('Job')]) {
  const pod = o.spec.template;
  if (o.kind === 'Deployment') {
    for (const [k, v] of Object.entries(o.spec.selector.matchLabels ?? {}))
      if (pod.metadata?.labels?.[k] !== v) problems.push(`${label(o)}: the selector's ${k}=${v} is not on its pods`);
  }
  for (const c of pod.spec.containers) {
    commands.push({ where: label(o), args: c.args ?? [] });
    for (const ref of c.envFrom ?? []) if (ref.secretRef && !secrets.has(ref.secretRef.name)) problems.push(`${label(o)}: no Secret ${ref.secretRef.name}`);
    if (o.kind !== 'Deployment') continue;
    const ports = new Set((c.ports ?? []).flatMap((p) => [p.name, p.containerPort]));
    const expect = { startupProbe: '/api/v1/healthcheck', livenessProbe: '/api/v1/healthcheck', readinessProbe: '/api/v1/healthcheck/ready' };
    for (const [probe, path] of Object.entries(expect)) {
      const get = c[probe]?.httpGet;
      if (get?.path !== path) problems.push(`${label(o)}: ${probe} is not GET ${path}`);
      else if (!ports.has(get.port)) problems.push(`${label(o)}: ${probe} names port ${get.port}, which the container does not have`);
    }
    const port = c.args?.[c.args.indexOf('--port') + 1];
    if (!c.args?.includes('--port') || !(c.ports ?? []).some((p) => String(p.containerPort) === port))
      problems.push(`${label(o)}: the server's --port is not the container's port`);
  }
}
for (const s of byKind('Service')) {
  const pods = byKind('Deployment').filter((d) => Object.entries(s.spec.selector).every(([k, v]) => d.spec.template.metadata?.labels?.[k] === v));
  if (pods.length === 0) problems.push(`${label(s)}: selects no Deployment's pods`);
  for (const d of pods)
    for (const p of s.spec.ports)
      if (!d.spec.template.spec.containers.some((c) => (c.ports ?? []).some((cp) => cp.name === p.targetPort || cp.containerPort === p.targetPort)))
        problems.push(`${label(s)}: targetPort ${p.targetPort} is not a port of ${label(d)}`);
}
const compose = parse(readFileSync('deploy/compose.yaml', 'utf8'));
for (const [name, service] of Object.entries(compose.services))
  if (service.command && String(service.image).includes('muster')) commands.push({ where: `compose ${name}`, args: service.command });
const cmd = readFileSync('Dockerfile', 'utf8').match(/^CMD (\[.*\])$/m);
commands.push({ where: 'Dockerfile CMD', args: JSON.parse(cmd[1]) });

// Each command with its options, as `muster <command> --help` lists them.
const helps = new Map();
for (const { where, args } of commands) {
  const first = args.findIndex((a) => a.startsWith('-'));
  const path = first === -1 ? args : args.slice(0, first);
  const key = path.join(' ');
  if (!helps.has(key)) {
    try {
      helps.set(key, execFileSync(process.execPath, ['bin/muster.js', ...path, '--help'], { encoding: 'utf8' }));
    } catch {
      helps.set(key, null);
    }
  }
  const help = helps.get(key);
  if (!help?.startsWith(`Usage: muster ${key}`)) {
    problems.push(`${where}: \`muster ${key}\` is not a command`);
    continue;
  }
  for (const a of args.slice(path.length))
    if (a.startsWith('--') && !new RegExp(`(^|[ ,])${a}\\b`, 'm').test(help)) problems.push(`${where}: \`muster ${key}\` has no option ${a}`);
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`${docs.length} objects (${docs.map(label).join(', ')}) match the Kubernetes schema; ${commands.length} commands and every probe match Muster`);
