// The Zoom plugin's configuration: a Server-to-Server OAuth app of the Zoom account (its account
// id, client id and client secret), the user who hosts the meetings, and the base URLs (Zoom's
// own unless a test points them at a local peer).
import { Type } from '@sinclair/typebox';
import { baseUrl, text } from '../configuration-text.ts';
import type { Configuration } from '../../types.ts';

export const zoomConfiguration = Type.Object(
  {
    account_id: Type.String({ minLength: 1, description: 'Account ID of the Server-to-Server OAuth app (App Marketplace, App Credentials)' }),
    client_id: Type.String({ minLength: 1, description: 'Client ID of the Server-to-Server OAuth app' }),
    client_secret: Type.String({ minLength: 1, writeOnly: true, description: 'Client secret of the Server-to-Server OAuth app' }),
    host: Type.String({
      minLength: 1,
      default: 'me',
      description: 'The Zoom user who hosts the meetings: an e-mail or a user id (`me`: the user who made the app)',
    }),
    api_url: Type.String({
      format: 'uri',
      pattern: '^https?://',
      default: 'https://api.zoom.us',
      'x-secret-bound': ['client_secret'],
      description: 'Base URL of the Zoom REST API',
    }),
    oauth_url: Type.String({
      format: 'uri',
      pattern: '^https?://',
      default: 'https://zoom.us',
      'x-secret-bound': ['client_secret'],
      description: 'Base URL of the Zoom OAuth server (its /oauth/token)',
    }),
  },
  { additionalProperties: false },
);

export interface ZoomSettings {
  accountId: string;
  clientId: string;
  clientSecret: string;
  host: string;
  apiUrl: string;
  oauthUrl: string;
}

export const zoomSettings = (config: Configuration): ZoomSettings => ({
  accountId: text(config, 'account_id') ?? '',
  clientId: text(config, 'client_id') ?? '',
  clientSecret: text(config, 'client_secret') ?? '',
  host: text(config, 'host') ?? 'me',
  apiUrl: baseUrl(text(config, 'api_url') ?? 'https://api.zoom.us'),
  oauthUrl: baseUrl(text(config, 'oauth_url') ?? 'https://zoom.us'),
});
