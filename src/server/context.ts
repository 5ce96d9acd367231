// The tenant context every service function takes: who calls, in which organization, with
// which role. Routes build it from the request (server/auth.ts); the CLI and jobs build their own.
import type { Executor } from '../db/connection.ts';
import type { Settings } from '../config.ts';
import { errors } from './errors.ts';

export const ROLES = ['Owner', 'Manager', 'Admin', 'Member'] as const;
export type Role = (typeof ROLES)[number];

const LEVEL: Record<Role, number> = { Owner: 4, Manager: 3, Admin: 2, Member: 1 };

/** Dispatch's permission classes, by the least role that passes each. */
export const PERMISSIONS = {
  OrganizationOwner: 'Owner',
  OrganizationManager: 'Manager',
  ProjectCreate: 'Manager',
  OrganizationAdmin: 'Admin',
  SensitiveProjectAction: 'Admin',
  ProjectUpdate: 'Admin',
  OrganizationMember: 'Member',
} as const satisfies Record<string, Role>;
export type Permission = keyof typeof PERMISSIONS;

/** The organization a request acts in: what tenancy scopes by and names are made of. */
export interface TenantOrganization {
  id: number;
  slug: string;
}

export interface UserRef {
  id: number;
  email: string;
  /** True while the person has not proven the address is theirs: it then matches no participant by e-mail. */
  unconfirmed?: boolean;
}

/**
 * The address a user is matched by when participation decides what they see (Restricted records)
 * and which contact is theirs: theirs once confirmed, else one that matches nothing (registering as
 * someone's address must not reveal their records).
 */
export const provenEmail = (user: UserRef) => (user.unconfirmed ? '' : user.email);

/** Where a request notes what it tolerated (pino's logger, Fastify's `request.log`). */
export interface RequestLog {
  debug(details: object, msg: string): void;
  warn(details: object, msg: string): void;
}

/** `O`: what the request knows of its organization; the auth hook loads the whole row. */
export interface Ctx<O extends TenantOrganization = TenantOrganization> {
  db: Executor;
  settings: Settings;
  user: UserRef;
  organization: O;
  role: Role;
  /** The request's logger; jobs and the CLI have none. */
  log?: RequestLog;
  /** The client's address (after trusted proxies), for the audit log. */
  address?: string;
  /** The API token the caller authenticated with, when it was one (the audit log names it). */
  tokenId?: number;
  /**
   * A condition the request's update checks inside its transaction, once the record is locked
   * (If-Match): checked there, no other write can change the record between the check and the write.
   */
  precondition?: (db: Executor) => Promise<void>;
}

export const atLeast = (role: Role | null | undefined, min: Role) => !!role && LEVEL[role] >= LEVEL[min];

export function requirePermission(role: Role | null | undefined, permission: Permission) {
  if (!atLeast(role, PERMISSIONS[permission])) throw errors.forbidden();
}

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);
