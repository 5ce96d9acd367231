// The `muster` program.
import { Command } from 'commander';
import { ConfigError } from '../config.ts';
import { databaseCommand } from './database.ts';
import { importCommand } from './import.ts';
import { jobsCommand } from './jobs.ts';
import { schedulerCommand } from './scheduler.ts';
import { pluginsCommand } from './plugins.ts';
import { serverCommand } from './server.ts';
import { tokenCommand } from './token.ts';
import { userCommand } from './user.ts';

const program = new Command('muster').description('Muster: incident and case management').version('0.1.0').showHelpAfterError();

program.addCommand(serverCommand());
program.addCommand(databaseCommand());
program.addCommand(jobsCommand());
program.addCommand(schedulerCommand());
program.addCommand(pluginsCommand());
program.addCommand(userCommand());
program.addCommand(tokenCommand());
program.addCommand(importCommand());

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`muster: ${err.message}`);
    process.exit(2);
  }
  console.error(`muster: ${(err as Error).message}`);
  process.exit(1);
}
