// Dispatch's Google plugins keep the service account's key as separate fields (its GoogleConfiguration:
// client email, client id, private key and its id, project id) and build the JSON key from them on
// each call; Muster's take the JSON key whole. An imported configuration is written the way Muster's
// plugin reads it; what Muster has no field for, or what Dispatch's configuration lacks, is said.

/** Dispatch's fields that only serve what Muster does otherwise (the discovery service's key, Drive's close-time sharing). */
const UNUSED = ['developer_key', 'open_on_close', 'read_only'];

/** Each Google plugin's own fields: Muster's name from Dispatch's. */
const OWN: Record<string, Record<string, string>> = {
  'google-drive-storage': { parent_id: 'root_id' },
  'google-group-participant-group': { domain: 'google_domain' },
  'google-calendar-conference': { duration_minutes: 'default_duration_minutes' },
  'google-docs-document': {},
};

export interface GoogleMapping {
  configuration: Record<string, unknown>;
  /** Muster's required fields Dispatch's configuration could not fill: the Admin gives them again. */
  missing: string[];
  /** Dispatch's fields with a value that Muster does not use. */
  unused: string[];
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);

/** Whether `slug` is a Google plugin whose configuration is mapped. */
export const isMappedGoogle = (slug: string | undefined): slug is string => slug !== undefined && slug in OWN;

/** A Dispatch Google plugin's configuration as Muster's plugin of the same slug takes it. */
export function fromDispatchGoogle(slug: string, dispatch: Record<string, unknown>): GoogleMapping {
  const configuration: Record<string, unknown> = {};
  const missing: string[] = [];
  const email = text(dispatch.service_account_client_email);
  const key = text(dispatch.service_account_private_key);
  if (email && key)
    configuration.service_account_key = JSON.stringify({
      type: 'service_account',
      project_id: text(dispatch.service_account_project_id),
      private_key_id: text(dispatch.service_account_private_key_id),
      // Dispatch's form keeps the PEM's line breaks as `\n`; it restores them before use, as here.
      private_key: key.replace(/\\n/g, '\n'),
      client_email: email,
      client_id: text(dispatch.service_account_client_id),
      token_uri: 'https://oauth2.googleapis.com/token',
    });
  else missing.push('service_account_key');
  const subject = text(dispatch.service_account_delegated_account);
  if (subject) configuration.subject = subject;
  else missing.push('subject');
  for (const [ours, theirs] of Object.entries(OWN[slug])) {
    const value = dispatch[theirs];
    if (ours === 'duration_minutes') {
      // Muster's events last 15 minutes to a day.
      if (typeof value === 'number' && Number.isFinite(value)) configuration[ours] = Math.min(1440, Math.max(15, Math.round(value)));
    } else if (text(value)) configuration[ours] = value;
    else if (ours === 'domain') missing.push(ours);
  }
  const unused = UNUSED.filter((f) => dispatch[f] !== undefined && dispatch[f] !== null && dispatch[f] !== '' && dispatch[f] !== false);
  return { configuration, missing, unused };
}
