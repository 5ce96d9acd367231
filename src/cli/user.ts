// `muster user`: accounts from the command line, as Dispatch's `dispatch user`: list, create (an
// operator's account counts as confirmed), set-role, reset-password, deactivate, confirm. Every change of access is
// in the audit log with the operator as its actor.
import { Command, Option } from 'commander';
import { confirmAccount, createAccount, deactivateAccount, listAccounts, parseRole, resetAccountPassword, setAccountRole } from '../domains/auth/operator.ts';
import { withDatabase } from './accounts.ts';
import { formatTable } from './table.ts';

const VIA_API = 'the API does the same (PUT /{organization}/users/{id} for roles), or stop the server first';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export function userCommand(): Command {
  const user = new Command('user').description('List, create and manage user accounts');

  user
    .command('list')
    .description('List users with their organizations and roles')
    .option('--organization <slug>', 'only members of this organization')
    .action(async (opts: { organization?: string }) => {
      const rows = await withDatabase((db) => listAccounts(db, opts.organization), VIA_API);
      console.log(
        formatTable(
          ['Email', 'Organization', 'Role', 'Confirmed', 'Active', 'Service account'],
          rows.map((r) => [
            r.email,
            r.organization ?? '-',
            r.role ?? '-',
            r.confirmed ? 'yes' : 'no',
            r.deactivated ? 'no' : 'yes',
            r.serviceAccount ? 'yes' : 'no',
          ]),
        ),
      );
    });

  user
    .command('create')
    .description('Create an account (its address counts as confirmed) in an organization, or add an existing one to it')
    .argument('<email>', 'the e-mail address')
    .requiredOption('--organization <slug>', 'the organization it joins')
    .addOption(new Option('--role <role>', 'its role there').default('Member'))
    .option('--password-stdin', 'read the password from standard input (without it: a random one; muster user reset-password sends a link)')
    .action(async (email: string, opts: { organization: string; role: string; passwordStdin?: boolean }) => {
      const role = parseRole(opts.role);
      const password = opts.passwordStdin ? await readStdin() : undefined;
      if (password !== undefined && password.length === 0) throw new Error('no password on standard input');
      const made = await withDatabase((db, settings) => createAccount(db, settings, { email, orgSlug: opts.organization, role, password }), VIA_API);
      console.log(`${made.created ? 'Created' : 'Added'} ${made.email}: ${made.role} in ${made.organization}`);
    });

  user
    .command('set-role')
    .description("Change a member's role in an organization")
    .argument('<email>', 'the member')
    .argument('<role>', 'Owner, Manager, Admin or Member')
    .requiredOption('--organization <slug>', 'the organization')
    .action(async (email: string, roleName: string, opts: { organization: string }) => {
      const role = parseRole(roleName);
      const r = await withDatabase((db) => setAccountRole(db, email, opts.organization, role), VIA_API);
      console.log(r.changed ? `${r.email}: ${r.before} -> ${r.role} in ${opts.organization}` : `${r.email} is ${r.role} in ${opts.organization} already`);
    });

  user
    .command('reset-password')
    .description('Send a member a password reset link (printed instead when no mail transport, MUSTER_SMTP_URL, is configured)')
    .argument('<email>', 'the member')
    .requiredOption('--organization <slug>', 'the organization whose sign-in page the link leads to')
    .action(async (email: string, opts: { organization: string }) => {
      const r = await withDatabase(
        (db, settings) => resetAccountPassword(db, settings, email, opts.organization),
        'POST /{organization}/auth/password-reset sends the link',
      );
      if (r.sent) console.log(`A password reset link is on its way to ${r.email}`);
      else {
        console.error(`No mail transport is configured: hand ${r.email} this link (it works once, and expires):`);
        console.log(r.link);
      }
    });

  user
    .command('deactivate')
    .description('Deactivate an account everywhere: it signs in nowhere and its tokens are refused and revoked')
    .argument('<email>', 'the account')
    .action(async (email: string) => {
      const r = await withDatabase((db) => deactivateAccount(db, email), 'stop the server first');
      console.log(`Deactivated ${r.email}; API tokens revoked: ${r.revoked}`);
    });

  user
    .command('confirm')
    .description("Mark an account's e-mail address as confirmed")
    .argument('<email>', 'the account')
    .action(async (email: string) => {
      const r = await withDatabase((db) => confirmAccount(db, email), 'stop the server first');
      console.log(r.changed ? `Confirmed ${r.email}` : `${r.email} is confirmed already`);
    });

  return user;
}
