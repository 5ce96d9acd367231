// Every setting of Muster in one place: the environment first, then `.env` in the working
// directory, then the defaults below. `muster server config` prints the result.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';

type Kind = 'string' | 'int' | 'bool' | 'secret';

interface SettingDef {
  env: string;
  /** Other variables read when `env` is unset, in order (Dispatch's names for the same setting). */
  aliases?: readonly string[];
  kind: Kind;
  default?: string;
  /** The least and the most an `int` may be. */
  range?: readonly [number, number];
  description: string;
}

const DEFS = {
  dataDir: { env: 'MUSTER_DATA_DIR', kind: 'string', default: './.muster', description: 'Directory of the embedded database and its generated secrets' },
  databaseUrl: { env: 'DATABASE_URL', kind: 'secret', description: 'postgres:// URL of a PostgreSQL server; unset runs the embedded database' },
  dbPoolSize: { env: 'MUSTER_DB_POOL_SIZE', kind: 'int', default: '10', description: 'Connections per process to the PostgreSQL server' },
  keptAnswersMb: {
    env: 'MUSTER_KEPT_ANSWERS_MB',
    kind: 'int',
    default: '64',
    description: 'Megabytes of dashboard answers each process keeps to answer again while the tables they read are unchanged; 0 keeps none',
  },
  dbConnectTimeout: {
    env: 'MUSTER_DB_CONNECT_TIMEOUT',
    kind: 'int',
    default: '10000',
    description: 'Milliseconds to wait for a PostgreSQL connection (to open one, or for a free one in the pool); 0 waits forever',
  },
  dbStatementTimeout: {
    env: 'MUSTER_DB_STATEMENT_TIMEOUT',
    kind: 'int',
    default: '30000',
    description: 'Milliseconds a statement of the API may run on PostgreSQL before it is cancelled; 0 for no limit',
  },
  dbIdleInTransactionTimeout: {
    env: 'MUSTER_DB_IDLE_IN_TRANSACTION_TIMEOUT',
    kind: 'int',
    default: '60000',
    description: 'Milliseconds PostgreSQL keeps a transaction of the API open while it waits for its next statement; 0 for no limit',
  },
  readyTimeout: {
    env: 'MUSTER_READY_TIMEOUT',
    kind: 'int',
    default: '2000',
    description: 'Milliseconds each check of GET /api/v1/healthcheck/ready may take before it counts as failed',
  },
  shutdownDelay: {
    env: 'MUSTER_SHUTDOWN_DELAY',
    kind: 'int',
    default: '0',
    description: 'Milliseconds a stopping server keeps accepting connections (its readiness answering 503) so a load balancer can notice',
  },
  shutdownTimeout: {
    env: 'MUSTER_SHUTDOWN_TIMEOUT',
    kind: 'int',
    default: '30000',
    description: 'Milliseconds a stopping server waits for requests in flight and open connections before it closes them',
  },
  jwtSecret: { env: 'MUSTER_JWT_SECRET', kind: 'secret', description: 'HS256 key of login tokens (generated on the embedded database)' },
  jwtExp: { env: 'MUSTER_JWT_EXP', kind: 'int', default: '86400', description: 'Token lifetime in seconds' },
  encryptionKey: { env: 'MUSTER_ENCRYPTION_KEY', kind: 'secret', description: 'Key that encrypts plugin secrets at rest (generated on the embedded database)' },
  registrationEnabled: {
    env: 'MUSTER_REGISTRATION_ENABLED',
    kind: 'bool',
    default: 'true',
    description: 'Whether POST /{organization}/auth/register is served',
  },
  invitationExp: {
    env: 'MUSTER_INVITATION_EXP',
    kind: 'int',
    default: '604800',
    description: 'Lifetime in seconds of an invitation to register in an organization',
  },
  passwordCost: {
    env: 'MUSTER_PASSWORD_COST',
    kind: 'int',
    default: '14',
    range: [10, 17],
    description:
      "Cost of new password hashes: scrypt's N as a power of 2. Each step doubles a hash's memory and time (14: 16 MiB, about 50 ms); a sign-in rehashes a password stored at a lower cost",
  },
  loginMaxFailures: {
    env: 'MUSTER_LOGIN_MAX_FAILURES',
    kind: 'int',
    default: '5',
    description: "Failed logins of one account from one client address within the window before that address's logins of it answer 429",
  },
  loginMaxFailuresPerAddress: {
    env: 'MUSTER_LOGIN_MAX_FAILURES_PER_ADDRESS',
    kind: 'int',
    default: '50',
    description: 'Failed logins from one client address within the window before its logins answer 429',
  },
  loginFailureWindow: {
    env: 'MUSTER_LOGIN_FAILURE_WINDOW',
    kind: 'int',
    default: '900',
    description: 'Seconds from the first counted failed login until the counts start again',
  },
  trustedProxies: {
    env: 'MUSTER_TRUSTED_PROXIES',
    kind: 'string',
    description:
      'Proxies whose X-Forwarded-For is believed: a number of hops, or comma-separated addresses and CIDRs (10.0.0.0/8); unset trusts none (`server start --proxy-headers` alone trusts one hop)',
  },
  oidcIssuer: {
    env: 'MUSTER_OIDC_ISSUER',
    kind: 'string',
    description: 'Issuer URL of the OpenID Connect provider for single sign-on (its /.well-known/openid-configuration); unset turns single sign-on off',
  },
  oidcClientId: { env: 'MUSTER_OIDC_CLIENT_ID', kind: 'string', description: "Muster's client id at the OpenID Connect provider" },
  oidcClientSecret: {
    env: 'MUSTER_OIDC_CLIENT_SECRET',
    kind: 'secret',
    description: "Muster's client secret at the OpenID Connect provider; unset signs in as a public client (PKCE only)",
  },
  oidcName: { env: 'MUSTER_OIDC_NAME', kind: 'string', default: 'SSO', description: 'Name of the provider on the sign-in button ("Sign in with <name>")' },
  oidcScopes: {
    env: 'MUSTER_OIDC_SCOPES',
    kind: 'string',
    default: 'openid email profile',
    description: 'Scopes asked of the provider at sign-in, space-separated',
  },
  oidcEmailClaim: {
    env: 'MUSTER_OIDC_EMAIL_CLAIM',
    aliases: ['DISPATCH_JWT_EMAIL_OVERRIDE'],
    kind: 'string',
    default: 'email',
    description: "Claim of the provider's tokens that holds the user's e-mail address",
  },
  oidcAudience: {
    env: 'MUSTER_OIDC_AUDIENCE',
    aliases: ['DISPATCH_JWT_AUDIENCE'],
    kind: 'string',
    description: 'Audience bearer tokens from the provider must name (comma-separated for several); unset: the client id',
  },
  oidcJwksUrl: {
    env: 'MUSTER_OIDC_JWKS_URL',
    aliases: ['DISPATCH_AUTHENTICATION_PROVIDER_PKCE_JWKS'],
    kind: 'string',
    description: "URL of the provider's signing keys for bearer tokens; unset: the jwks_uri the issuer's discovery document names",
  },
  oidcRoleClaim: {
    env: 'MUSTER_OIDC_ROLE_CLAIM',
    kind: 'string',
    description: 'Claim of the ID token naming the role (Owner, Manager, Admin or Member) of a user created at first sign-in; unset: Member',
  },
  headerAuth: {
    env: 'MUSTER_HEADER_AUTH',
    kind: 'bool',
    default: 'false',
    description: 'Sign in by the e-mail address in a header set by a trusted proxy (needs MUSTER_TRUSTED_PROXIES as addresses or CIDRs)',
  },
  headerAuthName: {
    env: 'MUSTER_HEADER_AUTH_NAME',
    aliases: ['DISPATCH_AUTHENTICATION_PROVIDER_HEADER_NAME'],
    kind: 'string',
    default: 'remote-user',
    description: "Header holding the signed-in user's e-mail address when header sign-in is on",
  },
  smtpUrl: {
    env: 'MUSTER_SMTP_URL',
    kind: 'secret',
    description:
      'Mail transport for account mail (address confirmations, password resets): smtp://user:password@host:587 (STARTTLS when offered) or smtps://...; unset: no account mail, see docs/security.md',
  },
  mailFrom: { env: 'MUSTER_MAIL_FROM', kind: 'string', default: 'Muster <muster@localhost>', description: 'Sender of account mail' },
  confirmLinkExp: {
    env: 'MUSTER_CONFIRM_LINK_EXP',
    kind: 'int',
    default: '259200',
    description: 'Lifetime in seconds of a link that confirms an e-mail address',
  },
  resetLinkExp: { env: 'MUSTER_RESET_LINK_EXP', kind: 'int', default: '3600', description: 'Lifetime in seconds of a password reset link' },
  outboundAllow: {
    env: 'MUSTER_OUTBOUND_ALLOW',
    kind: 'string',
    description:
      'Addresses plugins and webhooks may reach besides public ones: CIDRs and host names, comma-separated (10.20.0.0/16, jira.corp.example); unset allows public addresses only, see docs/security.md',
  },
  plugins: {
    env: 'MUSTER_PLUGINS',
    kind: 'string',
    description: 'Third-party plugins to load: npm package names (installed beside Muster) or absolute paths of module files, comma-separated',
  },
  staticDir: {
    env: 'MUSTER_STATIC_DIR',
    kind: 'string',
    description: "Directory of another built web UI to serve at / (its index.html for every other path outside /api/); unset serves Muster's own (ui/dist)",
  },
  contentSecurityPolicy: {
    env: 'MUSTER_CONTENT_SECURITY_POLICY',
    kind: 'string',
    description:
      "Content-Security-Policy of every answer, replacing Muster's own (which allows only the served UI's scripts; see docs/security.md), e.g. for another UI in MUSTER_STATIC_DIR that loads fonts from elsewhere",
  },
  uiUrl: {
    env: 'MUSTER_UI_URL',
    kind: 'string',
    default: 'http://127.0.0.1:8000',
    description: 'Base URL of the web UI, for the links Muster writes into chat, mail and tickets',
  },
  namePrefix: { env: 'MUSTER_NAME_PREFIX', kind: 'string', default: 'muster', description: 'Prefix of generated incident and case names' },
  schedulerTz: {
    env: 'MUSTER_SCHEDULER_TZ',
    kind: 'string',
    default: 'UTC',
    description: 'Time zone of the times of day periodic tasks run at (an IANA name such as Europe/Amsterdam)',
  },
  schedulerSecondMs: {
    env: 'MUSTER_SCHEDULER_SECOND_MS',
    kind: 'int',
    default: '1000',
    description: "Milliseconds in one second of an interval task's period: 1000; fewer speed the scheduler up for a test (100 runs a 30-second task every 3 s)",
  },
  workflowPollSeconds: {
    env: 'MUSTER_WORKFLOW_POLL_SECONDS',
    kind: 'int',
    default: '30',
    description: 'Seconds between status checks of a running workflow with its workflow system',
  },
  workflowTimeoutSeconds: {
    env: 'MUSTER_WORKFLOW_TIMEOUT',
    kind: 'int',
    default: '86400',
    description: 'Seconds a workflow run may stay unfinished before Muster stops checking it and marks it Failed',
  },
  metrics: {
    env: 'MUSTER_METRICS',
    kind: 'string',
    default: 'off',
    description: 'Prometheus metrics: off, on (GET /metrics on the API port, unauthenticated) or a port number (served there alone, on the same host)',
  },
  accessLog: {
    env: 'MUSTER_ACCESS_LOG',
    kind: 'bool',
    default: 'true',
    description: 'One log line per request at info: method, route pattern, status, duration, request id, caller id',
  },
  otlpEndpoint: {
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    kind: 'string',
    description: 'Base URL of an OTLP/HTTP receiver (http://collector:4318): traces are sent to its /v1/traces; unset sends no traces',
  },
  otlpTracesEndpoint: {
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    kind: 'string',
    description: 'Full URL traces are sent to, instead of OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces',
  },
  traceRatio: {
    env: 'OTEL_TRACES_SAMPLER_ARG',
    kind: 'string',
    default: '1',
    description: 'Share of traces started here that are recorded and sent, 0 to 1 (a trace continued from a caller follows its decision)',
  },
  serviceName: { env: 'OTEL_SERVICE_NAME', kind: 'string', default: 'muster', description: 'service.name of the traces Muster sends' },
  logLevel: { env: 'LOG_LEVEL', kind: 'string', default: 'info', description: 'trace, debug, info, warn, error or fatal' },
  auditRetentionDays: {
    env: 'MUSTER_AUDIT_RETENTION_DAYS',
    kind: 'int',
    default: '365',
    description: 'Days an audit log entry is kept before the audit-log-retention task deletes it; 0 keeps entries forever',
  },
  bodyLimit: { env: 'MUSTER_BODY_LIMIT', kind: 'int', default: '1048576', description: 'Largest request body in bytes (413 above it)' },
  uploadMaxBytes: {
    env: 'MUSTER_UPLOAD_MAX_BYTES',
    kind: 'int',
    default: '26214400',
    description: 'Largest file attached to an incident or a case, in bytes (413 above it, nothing stored)',
  },
  signalRawLimit: {
    env: 'MUSTER_SIGNAL_RAW_LIMIT',
    kind: 'int',
    default: '524288',
    description: 'Largest `raw` document of a signal instance in bytes, as JSON (413 above it)',
  },
} satisfies Record<string, SettingDef>;

type Defs = typeof DEFS;
type ValueOf<K extends Kind> = K extends 'int' ? number : K extends 'bool' ? boolean : string;
export type Settings = {
  [K in keyof Defs]: Defs[K] extends { default: string } ? ValueOf<Defs[K]['kind']> : ValueOf<Defs[K]['kind']> | undefined;
};

export class ConfigError extends Error {}

function convert(def: SettingDef, raw: string): string | number | boolean {
  if (def.kind === 'int') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${def.env} must be a whole number (0 or more), got "${raw}"`);
    if (def.range && (n < def.range[0] || n > def.range[1])) throw new ConfigError(`${def.env} must be from ${def.range[0]} to ${def.range[1]}, got ${n}`);
    return n;
  }
  if (def.kind === 'bool') {
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    throw new ConfigError(`${def.env} must be true or false, got "${raw}"`);
  }
  return raw;
}

function readDotenv(cwd: string): Record<string, string> {
  const file = join(cwd, '.env');
  return existsSync(file) ? parseDotenv(readFileSync(file)) : {};
}

/** Reads the settings without touching the disk beyond `.env`; secrets may still be missing. */
export function readSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const dotenv = readDotenv(cwd);
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(DEFS) as [string, SettingDef][]) {
    const raw = [def.env, ...(def.aliases ?? [])].map((name) => env[name] ?? dotenv[name]).find((v) => v !== undefined && v !== '') ?? def.default;
    out[key] = raw === undefined || raw === '' ? undefined : convert(def, raw);
  }
  out.dataDir = resolve(cwd, out.dataDir as string);
  if (out.staticDir) out.staticDir = resolve(cwd, out.staticDir as string);
  return out as Settings;
}

const GENERATED = ['jwtSecret', 'encryptionKey'] as const;

/**
 * Settings ready to serve: on the embedded database a missing JWT secret or encryption key is
 * generated once and kept in the data directory; against a server both are required, because
 * every node of a cluster must share them.
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const settings = readSettings(env, cwd);
  const missing = GENERATED.filter((k) => !settings[k]);
  if (missing.length === 0) return settings;
  if (settings.databaseUrl) {
    const names = missing.map((k) => DEFS[k].env).join(' and ');
    throw new ConfigError(
      `${names} must be set when DATABASE_URL is set (every node must share them). ` +
        `Generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`,
    );
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const file = join(settings.dataDir, 'secrets.json');
  const kept: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  let changed = false;
  for (const k of missing) {
    if (!kept[k]) {
      kept[k] = randomBytes(32).toString('base64url');
      changed = true;
    }
    settings[k] = kept[k];
  }
  if (changed) writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
  return settings;
}

/** Key/value rows of the effective settings, secrets masked, sorted by variable name. */
export function describeSettings(settings: Settings): { key: string; value: string; description: string }[] {
  return (Object.entries(DEFS) as [keyof Settings, SettingDef][])
    .map(([key, def]) => {
      const value = settings[key];
      const shown = value === undefined ? '' : def.kind === 'secret' ? "Secret('**********')" : String(value);
      const description = def.aliases?.length ? `${def.description} (also read from ${def.aliases.join(', ')})` : def.description;
      return { key: def.env, value: shown, description };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}
