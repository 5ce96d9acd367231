// What every Google Workspace plugin is configured with: the service account's JSON key (the
// secret), the Workspace user it acts as (domain-wide delegation), and where Google's APIs are
// (Google's own unless set; changing it needs the key again, as it is where the key's tokens go).
import { type TProperties, Type } from '@sinclair/typebox';

/** A Drive file, folder or shared drive id, as Drive's URLs show it. */
export const driveId = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', description }));

/** A Google plugin's configuration schema: the shared fields, then its own. */
export const googleConfiguration = <P extends TProperties>(own: P) =>
  Type.Object(
    {
      service_account_key: Type.String({
        minLength: 2,
        writeOnly: true,
        description: "The service account's JSON key file, whole (IAM & Admin > Service accounts > Keys > Add key > JSON)",
      }),
      subject: Type.String({
        format: 'email',
        description: 'The Workspace user the service account acts as (domain-wide delegation): files, groups and events are made in their name',
      }),
      api_root_url: Type.Optional(
        Type.String({
          format: 'uri',
          pattern: '^https?://',
          'x-secret-bound': ['service_account_key'],
          description: "Root URL of Google's APIs (default: Google's own); for a proxy or a test server",
        }),
      ),
      ...own,
    },
    { additionalProperties: false },
  );
