// The Teams plugin's configuration: an app registration of the Microsoft Entra tenant (its tenant
// id, client id and client secret), the user who organizes the meetings, and the base URLs
// (Microsoft's own unless a test points them at a local peer).
import { Type } from '@sinclair/typebox';
import { baseUrl, text } from '../configuration-text.ts';
import type { Configuration } from '../../types.ts';

export const teamsConfiguration = Type.Object(
  {
    tenant_id: Type.String({ minLength: 1, description: 'Directory (tenant) ID of the app registration' }),
    client_id: Type.String({ minLength: 1, description: 'Application (client) ID of the app registration' }),
    client_secret: Type.String({ minLength: 1, writeOnly: true, description: 'A client secret of the app registration (Certificates & secrets)' }),
    organizer: Type.String({
      minLength: 1,
      description: 'The user who organizes the meetings: their object ID or user principal name; the application access policy must cover them',
    }),
    authority_url: Type.String({
      format: 'uri',
      pattern: '^https?://',
      default: 'https://login.microsoftonline.com',
      'x-secret-bound': ['client_secret'],
      description: 'The Microsoft identity platform host that issues the app its tokens',
    }),
    graph_url: Type.String({
      format: 'uri',
      pattern: '^https?://',
      default: 'https://graph.microsoft.com',
      'x-secret-bound': ['client_secret'],
      description: 'Base URL of Microsoft Graph',
    }),
  },
  { additionalProperties: false },
);

export interface TeamsSettings {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  organizer: string;
  authorityUrl: string;
  graphUrl: string;
}

export const teamsSettings = (config: Configuration): TeamsSettings => ({
  tenantId: text(config, 'tenant_id') ?? '',
  clientId: text(config, 'client_id') ?? '',
  clientSecret: text(config, 'client_secret') ?? '',
  organizer: text(config, 'organizer') ?? '',
  authorityUrl: baseUrl(text(config, 'authority_url') ?? 'https://login.microsoftonline.com'),
  graphUrl: baseUrl(text(config, 'graph_url') ?? 'https://graph.microsoft.com'),
});
