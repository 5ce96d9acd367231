// `muster import dispatch`: brings a Dispatch database into Muster's (see docs/migrating-from-dispatch.md).
import { Command } from 'commander';
import { withDatabase } from './accounts.ts';
import { formatReport } from './import/report.ts';
import { importDispatch } from './import/run.ts';

interface Options {
  from: string;
  org: string[];
  dryRun?: boolean;
  dispatchEncryptionKey?: string;
  idMap?: string;
  allowNonempty?: boolean;
}

export function importCommand(): Command {
  const cmd = new Command('import').description('Bring records from another incident management system');
  cmd
    .command('dispatch')
    .description('Import a Dispatch database: organizations, people, projects and their records; run again to bring what changed')
    .requiredOption('--from <url>', 'the Dispatch database, postgres://user:password@host:port/database')
    .option('--org <slug>', 'only this organization (repeat for more; default: all)', (v: string, all: string[]) => [...all, v], [])
    .option('--dry-run', 'import inside a transaction that is rolled back, and print the report')
    .option('--dispatch-encryption-key <key>', "Dispatch's DISPATCH_ENCRYPTION_KEY, to bring plugin configurations (also read from DISPATCH_ENCRYPTION_KEY)")
    .option('--id-map <file>', 'where the map of Dispatch ids to Muster ids goes (default dispatch-id-map.json when ids are remapped)')
    .option('--allow-nonempty', "import beside data that Muster's database already holds (ids are remapped)")
    .action(async (opts: Options) => {
      const reports = await withDatabase(
        (db, settings) =>
          importDispatch(
            db,
            {
              from: opts.from,
              orgs: opts.org,
              dryRun: opts.dryRun,
              idMap: opts.idMap,
              allowNonempty: opts.allowNonempty,
              keys: { dispatch: opts.dispatchEncryptionKey ?? process.env.DISPATCH_ENCRYPTION_KEY, muster: settings.encryptionKey as string },
            },
            (line) => console.log(line),
          ),
        'stop the server first: the import writes each organization in one transaction',
      );
      console.log(formatReport(reports, !!opts.dryRun));
    });
  return cmd;
}
