// `muster token`: API tokens from the command line (docs/api-tokens.md). `create` prints the token
// once, alone on standard output (what it is goes to standard error), so a script can capture it.
import { Command } from 'commander';
import { createTokenFor, listAllTokens, parseRole, revokeTokenById } from '../domains/auth/operator.ts';
import { when, withDatabase } from './accounts.ts';
import { formatTable } from './table.ts';

const VIA_API = 'the API does the same: POST /{organization}/api-tokens, DELETE /{organization}/api-tokens/{id}';

export function tokenCommand(): Command {
  const token = new Command('token').description('Create, list and revoke API tokens');

  token
    .command('create')
    .description("Create an API token acting as a user (or as a service account, on the user's authority); it is printed once")
    .requiredOption('--organization <slug>', 'the organization the token acts in')
    .requiredOption('--user <email>', 'the user it acts as, or who makes the service account token')
    .requiredOption('--name <name>', 'what the token is for')
    .option('--role <role>', "its role (default: the user's, or the service account's); never above the user's")
    .option('--read-only', 'reads only: writes answer 403')
    .option('--expires-in-days <n>', 'expires after this many days (default: never)', (v) => Number(v))
    .option('--service-account <name>', 'act as this service account of the organization (made, with --role or Member, when missing)')
    .action(
      async (opts: {
        organization: string;
        user: string;
        name: string;
        role?: string;
        readOnly?: boolean;
        expiresInDays?: number;
        serviceAccount?: string;
      }) => {
        const role = opts.role === undefined ? undefined : parseRole(opts.role);
        const made = await withDatabase(
          (db) =>
            createTokenFor(db, {
              orgSlug: opts.organization,
              email: opts.user,
              name: opts.name,
              role,
              readOnly: !!opts.readOnly,
              expiresInDays: opts.expiresInDays,
              serviceAccount: opts.serviceAccount,
            }),
          VIA_API,
        );
        if (made.account?.created) console.error(`Created service account ${made.account.email}`);
        console.error(
          `API token ${made.id} (${made.prefix}...) "${made.name}" for ${made.user.email} in ${made.organization}: ${made.role}${made.read_only ? ', read-only' : ''}, ${
            made.expires_at ? `expires ${when(made.expires_at)}` : 'does not expire'
          }. It is shown only now:`,
        );
        console.log(made.token);
      },
    );

  token
    .command('list')
    .description('List API tokens not revoked')
    .option('--organization <slug>', 'only tokens of this organization')
    .option('--json', 'one JSON object per line instead of a table')
    .action(async (opts: { organization?: string; json?: boolean }) => {
      const rows = await withDatabase((db) => listAllTokens(db, opts.organization), VIA_API);
      if (opts.json) {
        for (const r of rows) console.log(JSON.stringify(r));
        return;
      }
      console.log(
        formatTable(
          ['Id', 'Organization', 'Name', 'Prefix', 'User', 'Role', 'Read-only', 'Expires', 'Last used', 'Address'],
          rows.map((r) => [
            String(r.id),
            r.organization,
            r.name,
            r.prefix,
            r.user.email,
            r.role,
            r.read_only ? 'yes' : 'no',
            when(r.expires_at) || 'never',
            when(r.last_used_at) || 'never',
            r.last_used_address ?? '',
          ]),
        ),
      );
    });

  token
    .command('revoke')
    .description('Revoke an API token: it is refused from the next request')
    .argument('<id>', 'the token id (muster token list)')
    .action(async (id: string) => {
      if (!/^\d+$/.test(id)) throw new Error(`not a token id: ${id}`);
      const r = await withDatabase((db) => revokeTokenById(db, Number(id)), VIA_API);
      console.log(`Revoked API token ${r.id} "${r.name}"`);
    });

  return token;
}
