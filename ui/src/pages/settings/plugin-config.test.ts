import { describe, expect, it } from 'vitest';
import { configBody, configFields, configValues, MASK } from './plugin-config.ts';

// The example plugin's schema (docs/plugins.md), plus a flag, a choice and a list.
const schema = {
  type: 'object',
  properties: {
    signing_secret: { type: 'string', minLength: 8, writeOnly: true, description: 'Shared secret' },
    signature_header: { type: 'string', default: 'x-signature' },
    verify: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'safe'] },
    retries: { type: 'integer' },
    hosts: { type: 'array', items: { type: 'string' } },
  },
  required: ['signing_secret'],
};

describe('plugin configuration forms', () => {
  it('makes one input per property, secrets as secrets', () => {
    const fields = configFields(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['signing_secret', 'secret', true],
      ['signature_header', 'text', false],
      ['verify', 'bool', false],
      ['mode', 'select', false],
      ['retries', 'number', false],
      ['hosts', 'json', false],
    ]);
    expect(configFields(null)).toEqual([]);
  });

  it('starts from the masked configuration and sends the mask back, so the secret is kept', () => {
    const fields = configFields(schema);
    const values = configValues(fields, { signing_secret: MASK, hosts: ['a'] });
    expect(values.signing_secret).toBe(MASK);
    expect(values.signature_header).toBe('x-signature');
    expect(configBody(fields, values)).toEqual({ signing_secret: MASK, signature_header: 'x-signature', verify: false, hosts: ['a'] });
  });

  it('names a field that is not JSON', () => {
    const fields = configFields(schema);
    expect(() => configBody(fields, { hosts: '[nope' })).toThrow('Hosts is not valid JSON.');
  });
});
