// `muster database`: schema revisions, seeding, backups. Every command works on the configured
// database, embedded or server.
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Command } from 'commander';
import { readSettings, loadSettings } from '../config.ts';
import { openDatabase, openEmbedded, type Database } from '../db/connection.ts';
import { initialize } from '../app/bootstrap.ts';
import { DEFAULT_DUMP_FILE, dropAll, dump, isEmpty, restore } from '../db/dump.ts';
import { ancestors, currentRevisions, downgrade, heads, loadRevisions, stamp, topoOrder, upgrade } from '../db/migrate.ts';
import { createRevision, mergeHeads } from '../db/revision.ts';

async function withDatabase<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(readSettings(), { maintenance: true });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(`${question} [y/N] `);
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}

const log = (m: string) => console.log(m);

export function databaseCommand(): Command {
  const db = new Command('database').description('Manage the database: schema, seed data, backups');

  db.command('init')
    .description('Create the schema and the default organization and project')
    .action(async () => {
      if (!readSettings().databaseUrl) loadSettings(); // creates the embedded database's secrets on first use
      await withDatabase(async (d) => {
        const { applied, seeded } = await initialize(d, log);
        console.log(applied || seeded ? 'Database initialized.' : 'Database already initialized; nothing to do.');
      });
    });

  db.command('upgrade')
    .description('Apply revisions up to the newest (or --revision)')
    .option('--revision <rev>', 'target revision', 'heads')
    .action(async (opts: { revision: string }) => {
      await withDatabase(async (d) => {
        const n = await upgrade(d, opts.revision, log);
        console.log(n ? `Applied ${n} revision(s).` : 'Already up to date.');
      });
    });

  db.command('downgrade')
    .description('Undo the newest revision (or down to --revision; "base" undoes all)')
    .option('--revision <rev>', 'target revision')
    .action(async (opts: { revision?: string }) => {
      await withDatabase(async (d) => {
        const n = await downgrade(d, opts.revision, log);
        console.log(`Undid ${n} revision(s).`);
      });
    });

  db.command('revision')
    .description('Create a new schema revision')
    .requiredOption('-m, --message <message>', 'what the revision changes')
    .option('--autogenerate', 'write up and down SQL from the difference between the tables and the last revision')
    .action(async (opts: { message: string; autogenerate?: boolean }) => {
      const r = await createRevision(opts.message, opts.autogenerate ? { ...(await import('../app/schema.ts')) } : undefined);
      console.log(`Created revision ${r.revision} in ${r.dir}${opts.autogenerate ? ` (${r.up} up, ${r.downCount} down statements)` : ''}`);
    });

  db.command('heads')
    .description('Show the newest revision(s)')
    .action(() => {
      const revs = loadRevisions();
      for (const h of heads(revs)) console.log(`${h} (head) ${revs.get(h)!.message}`);
    });

  db.command('history')
    .description('Show every revision, newest first, and which are applied')
    .action(async () => {
      const revs = loadRevisions();
      const applied = await withDatabase(async (d) => ancestors(revs, await currentRevisions(d))).catch(() => new Set<string>());
      const headSet = new Set(heads(revs));
      for (const id of topoOrder(revs, new Set(revs.keys())).reverse()) {
        const r = revs.get(id)!;
        const parents = r.down.length ? r.down.join(', ') : '<base>';
        const marks = [headSet.has(id) ? 'head' : '', applied.has(id) ? 'applied' : ''].filter(Boolean).join(', ');
        console.log(`${parents} -> ${id}${marks ? ` (${marks})` : ''}, ${r.message}`);
      }
    });

  db.command('merge')
    .description('Create a revision joining two or more heads')
    .argument('[revisions...]', 'heads to merge (all by default)')
    .option('-m, --message <message>', 'message', 'merge heads')
    .action(async (revisions: string[], opts: { message: string }) => {
      const r = await mergeHeads(opts.message, revisions);
      console.log(`Created merge revision ${r.revision} of ${r.down.join(', ')}`);
    });

  db.command('stamp')
    .description('Record a revision as applied without running it')
    .argument('[revision]', 'revision', 'heads')
    .action(async (revision: string) => {
      await withDatabase((d) => stamp(d, revision));
      console.log(`Stamped ${revision}.`);
    });

  db.command('drop')
    .description('Drop every table and all data')
    .option('--yes', 'do not ask for confirmation')
    .action(async (opts: { yes?: boolean }) => {
      if (!opts.yes && !(await confirm('Drop every table and all data of Muster?'))) {
        console.log('Nothing dropped (pass --yes to confirm without a prompt).');
        return;
      }
      await withDatabase(dropAll);
      console.log('Dropped all data.');
    });

  db.command('check')
    .description('Read the whole database and verify it (tables, primary keys, indexes with amcheck); exits non-zero on any problem')
    .action(async () => {
      const settings = readSettings();
      const { checkDatabase } = await import('../db/check.ts');
      let database: Database;
      if (settings.databaseUrl) database = await openDatabase(settings, { maintenance: true });
      else {
        const { amcheck } = await import('@electric-sql/pglite/contrib/amcheck');
        database = await openEmbedded(settings.dataDir, undefined, { extensions: { amcheck } });
      }
      try {
        const report = await checkDatabase(database, log);
        for (const p of report.problems) console.error(`problem: ${p}`);
        if (report.problems.length) throw new Error(`${report.problems.length} problem(s) found; restore the database from a dump (muster database restore)`);
        console.log('No problems found.');
      } finally {
        await database.close();
      }
    });

  db.command('dump')
    .description(`Write the whole database as plain SQL (default ./${DEFAULT_DUMP_FILE})`)
    .option('--dump-file <file>', 'output file', DEFAULT_DUMP_FILE)
    .action(async (opts: { dumpFile: string }) => {
      const file = resolve(opts.dumpFile);
      const bytes = await withDatabase((d) => dump(d, file));
      console.log(`Wrote ${bytes} bytes to ${file}`);
    });

  db.command('restore')
    .description(`Load a plain SQL dump (default ./${DEFAULT_DUMP_FILE}) into the configured database`)
    .option('--dump-file <file>', 'input file', DEFAULT_DUMP_FILE)
    .option('--yes', 'replace a database that already holds data without asking')
    .action(async (opts: { dumpFile: string; yes?: boolean }) => {
      const file = resolve(opts.dumpFile);
      await withDatabase(async (d) => {
        if (!(await isEmpty(d))) {
          if (!opts.yes && !(await confirm('The database holds data. Replace all of it with the dump?'))) {
            throw new Error('The database is not empty; pass --yes to replace its contents with the dump');
          }
          await dropAll(d);
        }
        const { statements, skipped } = await restore(d, file);
        for (const s of skipped) console.log(`skipped: ${s}`);
        console.log(`Restored ${statements} statements from ${file}`);
      });
    });

  return db;
}
