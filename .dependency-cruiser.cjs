// The order between Muster's folders (docs/architecture.md): each layer imports only layers below
// it, and nothing imports in a circle, neither between files (no-circular below) nor between folders
// (lint/order.ts runs these rules, then finds circles between folders in the same run).
//
//   config.ts, lib/, plugins/  <  db/  <  jobs/  <  server/  <  list/  <  domains/  <  chat/  <  app/  <  cli/
//
// chat/ is the chat platform's endpoints and commands: it drives the domains' services for people
// in Slack, as routes do for HTTP clients, so it sits above every domain and below the composition.
// plugins/ holds plugin declarations and built-in plugins: they talk to outside systems and know
// nothing of Muster's tables (what they need is passed to them). jobs/ is the durable job queue.
// and inside domains/: foundation < crud/ < reference records < work records.
//
// crud/ (the one mechanism of the plain record groups) sits among the domains: above the
// foundation domains it names (organization, project, and the audit log its deletions write to),
// below every domain that uses it.
const FOUNDATION = '^src/domains/(organization|project|audit)/';
// The domains come in three tiers: foundation (organizations, projects, users), reference records a
// project configures (priorities, types, tags, contacts, ...), and the records work happens on
// (incidents, cases, their people and timeline, signals). Code of a lower tier never imports code of
// a higher one; shapes (schema.ts) and tables (table.ts) of any domain may be named anywhere in
// src/domains, since they hold no behaviour.
const RECORDS =
  'lifecycle|effects|incident|case|participant|event|task|report|feedback|incident_cost|signal|entity|entity_type|workflow|tag_recommendation|search|conversation|storage|group|conference|record_document';
// The plugin catalogue is installation-wide and every new project is seeded with its instances.
// The audit log is written by every tier (sign-ins as well as record deletions), so it sits lowest.
const FOUNDATION_CODE = '^src/domains/(organization|project|auth|plugin|audit)/';
const RECORD_CODE = `^src/domains/(${RECORDS})/(?!schema\\.ts$|table\\.ts$)`;
const HIGHER_THAN_FOUNDATION = `^src/domains/(?!organization/|project/|auth/|plugin/|audit/)[^/]+/(?!schema\\.ts$|table\\.ts$)`;
const PLATFORM = '^src/(config\\.ts|lib/|plugins/|db/|jobs/|server/|list/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other, directly or through others, cannot be understood or tested alone.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'config-and-lib-stand-alone',
      severity: 'error',
      comment: 'config.ts and lib/ know nothing of the database, HTTP or any domain.',
      from: { path: '^src/(config\\.ts|lib/)' },
      to: { path: '^src/', pathNot: '^src/(config\\.ts|lib/)' },
    },
    {
      name: 'plugins-stand-alone',
      severity: 'error',
      comment: 'Plugins know nothing of the database, HTTP or any domain: what they need is passed to them.',
      from: { path: '^src/plugins/' },
      to: { path: '^src/', pathNot: '^src/(config\\.ts|lib/|plugins/)' },
    },
    {
      name: 'jobs-below-server',
      severity: 'error',
      comment: 'jobs/ is the job queue over the database: no HTTP, no lists, no domains.',
      from: { path: '^src/jobs/' },
      to: { path: '^src/', pathNot: '^src/(config\\.ts|lib/|db/|jobs/)' },
    },
    {
      name: 'db-below-server',
      severity: 'error',
      comment: 'db/ is the connection, statements and migrations: no HTTP, no lists, no domains.',
      from: { path: '^src/db/' },
      to: { path: '^src/', pathNot: '^src/(config\\.ts|lib/|db/)' },
    },
    {
      name: 'server-below-list',
      severity: 'error',
      comment: 'server/ is HTTP plumbing (errors, context, shapes, validation): no lists, no domains.',
      from: { path: '^src/server/' },
      to: { path: '^src/', pathNot: '^src/(config\\.ts|lib/|plugins/|db/|jobs/|server/)' },
    },
    {
      name: 'list-below-domains',
      severity: 'error',
      comment: 'list/ is the one list engine: it knows list definitions, never a domain.',
      from: { path: '^src/list/' },
      to: { path: '^src/', pathNot: PLATFORM },
    },
    {
      name: 'foundation-below-crud',
      severity: 'error',
      comment: 'Organizations and projects are what crud/ scopes records by; they do not use it.',
      from: { path: FOUNDATION },
      to: { path: '^src/crud/' },
    },
    {
      name: 'crud-below-domains',
      severity: 'error',
      comment: 'crud/ serves the domains; it may name only the foundation domains.',
      from: { path: '^src/crud/' },
      to: { path: '^src/(domains|app|cli)/', pathNot: FOUNDATION },
    },
    {
      name: 'foundation-below-other-domains',
      severity: 'error',
      comment: "Organizations, projects and users know no other domain's code (shapes and tables aside).",
      from: { path: FOUNDATION_CODE },
      to: { path: HIGHER_THAN_FOUNDATION },
    },
    {
      name: 'reference-records-below-work-records',
      severity: 'error',
      comment:
        'What a project configures (priorities, types, tags, contacts, ...) knows nothing of incidents, cases or signals beyond their shapes and tables.',
      from: { path: '^src/domains/', pathNot: `${FOUNDATION_CODE}|^src/domains/(${RECORDS})/` },
      to: { path: RECORD_CODE },
    },
    {
      name: 'domains-below-app',
      severity: 'error',
      comment: 'Domains never import the chat platform (chat/), the composition (app/) or the command line (cli/).',
      from: { path: '^src/(domains|crud)/' },
      to: { path: '^src/(chat|app|cli)/' },
    },
    {
      name: 'chat-below-app',
      severity: 'error',
      comment: 'chat/ uses the domains; the composition (app/) and the command line use it, not the reverse.',
      from: { path: '^src/chat/' },
      to: { path: '^src/(app|cli)/' },
    },
    {
      name: 'app-below-cli',
      severity: 'error',
      comment: 'app/ composes the domains into a server; the command line uses it, not the reverse.',
      from: { path: '^src/app/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'no-tests-in-production-code',
      severity: 'error',
      comment: 'Code that ships never imports test files or the test/ folder.',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { path: '\\.test\\.ts$|^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
