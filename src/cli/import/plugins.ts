// Plugins: Dispatch's catalogue matched to Muster's by slug, each project's plugin instances with
// their configurations (opened with Dispatch's key and sealed again with Muster's; without the key
// they come over disabled and empty), workflows and their runs.
import { decryptConfiguration, encryptConfiguration } from '../../plugins/secrets.ts';
import { seedInstances } from '../../domains/project/plugin-instances.ts';
import { CORE_SCOPE, exec, type Importer, type Spec } from './copy.ts';
import { openDispatchConfiguration, WrongDispatchKey } from './dispatch-secrets.ts';
import { fromDispatchGoogle, isMappedGoogle } from './google.ts';
import { inProject } from './people.ts';

/** Dispatch's own built-ins whose work Muster's built-ins do. */
const BUILTIN_ALIASES: Record<string, string> = {
  'dispatch-ticket': 'muster-ticket',
  'dispatch-participant-resolver': 'muster-participant-resolver',
  'dispatch-contact': 'muster-contact',
};

/** Dispatch's plugins and plugin events, taken to be Muster's of the same slug (or its built-in's). */
export async function matchCatalogue(im: Importer): Promise<void> {
  for (const [kind, table] of [
    ['plugin', 'plugin'],
    ['plugin_event', 'plugin_event'],
  ] as const) {
    const theirs = await im.source.rows<{ id: number; slug: string }>(`SELECT id, slug FROM ${CORE_SCOPE}.${table}`);
    const ours = new Map((await exec<{ id: number; slug: string }>(im.db, `SELECT id, slug FROM ${table}`)).map((r) => [r.slug, r.id]));
    for (const t of theirs) {
      const id = ours.get(t.slug) ?? (kind === 'plugin' ? ours.get(BUILTIN_ALIASES[t.slug]) : undefined);
      if (id !== undefined) await im.adopt(kind, t.id, id);
    }
  }
}

export interface Keys {
  /** DISPATCH_ENCRYPTION_KEY, when given. */
  dispatch?: string;
  /** MUSTER_ENCRYPTION_KEY. */
  muster: string;
}

export async function importPlugins(im: Importer, keys: Keys): Promise<void> {
  const types = new Map((await exec<{ id: number; type: string }>(im.db, 'SELECT id, type FROM plugin')).map((r) => [r.id, r.type]));
  const slugs = new Map((await im.source.rows<{ id: number; slug: string }>(`SELECT id, slug FROM ${CORE_SCOPE}.plugin`)).map((r) => [r.id, r.slug]));
  // What is stored now, so that a configuration that has not changed keeps its ciphertext.
  const stored = new Map(
    (
      await exec<{ id: number; configuration: string | null }>(im.db, 'SELECT id, configuration FROM plugin_instance WHERE organization_id = $1', [
        im.organizationId,
      ])
    ).map((r) => [r.id, r.configuration]),
  );
  const rows = await im.read({ kind: 'plugin_instance', from: 'plugin_instance' });
  let sealed = 0;
  let closed = 0;
  const unreadable: string[] = [];
  const missing = new Set<string>();
  /** Google instances whose configuration Muster's plugin cannot use as it came: what to give again. */
  const incomplete: string[] = [];
  const unusedGoogle = new Set<string>();
  for (const r of rows) {
    const slug = slugs.get(Number(r.plugin_id));
    const pluginId = im.target('plugin', r.plugin_id);
    r.plugin_type = pluginId === undefined ? null : types.get(pluginId);
    if (pluginId === undefined) {
      missing.add(slug ?? String(r.plugin_id));
      r.plugin_id = -1; // left out below
    }
    const secret = r._configuration as string | null;
    r.configuration = null;
    if (!secret) continue;
    if (!keys.dispatch) {
      r.enabled = false;
      closed++;
      continue;
    }
    let config: Record<string, unknown>;
    try {
      config = openDispatchConfiguration(secret, keys.dispatch);
    } catch (err) {
      if (!(err instanceof WrongDispatchKey)) throw err;
      unreadable.push(String(r.id));
      r.enabled = false;
      continue;
    }
    const existing = stored.get(im.target('plugin_instance', r.id) ?? -1);
    if (isMappedGoogle(slug)) {
      const mapped = fromDispatchGoogle(slug, config);
      // What the Admin completed in Muster after an earlier run stays, while Dispatch still lacks it.
      const completed = existing ? opened(existing, keys.muster) : {};
      const lacking = mapped.missing.filter((f) => completed[f] === undefined);
      config = { ...mapped.configuration, ...Object.fromEntries(mapped.missing.filter((f) => !lacking.includes(f)).map((f) => [f, completed[f]])) };
      for (const f of mapped.unused) unusedGoogle.add(f);
      if (lacking.length) {
        // Muster's plugin would refuse it: it comes over disabled until the Admin completes it.
        incomplete.push(`instance ${r.id} (${slug}${r.enabled ? '' : ', disabled in Dispatch'}): give ${lacking.join(', ')}`);
        r.enabled = false;
      }
    }
    r.configuration = existing && same(existing, config, keys.muster) ? existing : encryptConfiguration(config, keys.muster);
    sealed++;
  }
  if (unreadable.length)
    throw new Error(
      `the plugin configurations of instance(s) ${unreadable.join(', ')} do not decrypt with --dispatch-encryption-key: is it the DISPATCH_ENCRYPTION_KEY of this Dispatch?`,
    );
  await im.copy(
    inProject('plugin_instance', 'plugin_instance', {
      refs: { plugin_id: 'plugin' },
      used: ['_configuration', 'plugin_type'],
    }),
    rows.filter((r) => r.plugin_id !== -1),
  );
  im.report.noHome(
    'plugin_instance',
    rows.filter((r) => r.plugin_id === -1).length,
    `instances of plugins Muster's catalogue does not have (${[...missing].sort().join(', ')}): install a plugin of the same slug (MUSTER_PLUGINS) and import again`,
  );
  if (closed)
    im.report.notes.push(
      `${closed} plugin instance(s) have a configuration and came over disabled, without it: give --dispatch-encryption-key to bring the configurations`,
    );
  if (incomplete.length)
    im.report.notes.push(
      `${incomplete.length} Google plugin instance(s) came over disabled: Dispatch's configuration lacks what Muster's plugin needs; complete it in Muster (Settings > Plugins) and enable it: ${incomplete.join('; ')}`,
    );
  if (unusedGoogle.size) im.report.notes.push(`Google plugin fields Muster does not use, left out: ${[...unusedGoogle].sort().join(', ')}`);
  if (sealed) im.report.notes.push(`${sealed} plugin configuration(s) re-encrypted with MUSTER_ENCRYPTION_KEY`);
  // Muster's catalogue plugins that Dispatch had no instance of: the instance a new project would have.
  for (const project of im.mapOf('project').values()) await im.db.execute(seedInstances(project, im.organizationId));
}

/** A stored configuration in clear; empty when it does not open. */
function opened(stored: string, key: string): Record<string, unknown> {
  try {
    return decryptConfiguration(stored, key) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function same(stored: string, config: Record<string, unknown>, key: string): boolean {
  try {
    return JSON.stringify(decryptConfiguration(stored, key)) === JSON.stringify(config);
  } catch {
    return false;
  }
}

export const workflowSpecs: Spec[] = [
  // Dispatch's sample leaves a workflow's project empty: it is its plugin instance's.
  inProject('workflow', 'workflow', {
    select: 'SELECT w.*, coalesce(w.project_id, i.project_id) AS project_id FROM {s}.workflow w LEFT JOIN {s}.plugin_instance i ON i.id = w.plugin_instance_id',
    refs: { plugin_instance_id: 'plugin_instance' },
  }),
];

export const workflowRunSpecs: Spec[] = [
  inProject('workflow_instance', 'workflow_instance', {
    select: 'SELECT w.*, f.project_id FROM {s}.workflow_instance w JOIN {s}.workflow f ON f.id = w.workflow_id',
    refs: { workflow_id: 'workflow', incident_id: 'incident', case_id: 'case', signal_id: 'signal', creator_id: 'participant' },
  }),
  {
    kind: 'workflow_instance_artifact',
    from: 'workflow_instance_artifact',
    link: ['workflow_instance_id', 'document_id'],
    refs: { workflow_instance_id: 'workflow_instance', document_id: 'document' },
  },
];
