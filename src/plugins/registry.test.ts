import { describe, expect, it } from 'vitest';
import { checkPlugin, PluginLoadError } from './registry.ts';

const base = { slug: 'test-plugin', title: 'Test', type: 'email', version: '1.0.0', author: 'Tests', description: 'A plugin of the tests' };
const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('checkPlugin', () => {
  it('takes a plugin that declares what every plugin must', () => {
    const p = checkPlugin({ ...base, configuration: schema({ password: { type: 'string', writeOnly: true } }) }, 'test');
    expect(p).toMatchObject({ slug: 'test-plugin', author_url: '' });
  });

  it("takes the types as the service summary spells them, and Dispatch's later `participant-group`", () => {
    expect(checkPlugin({ ...base, type: 'document-resolver' }, 'test').type).toBe('document-resolver');
    expect(checkPlugin({ ...base, type: 'participant_group' }, 'test').type).toBe('participant_group');
    expect(checkPlugin({ ...base, type: 'participant-group' }, 'test').type).toBe('participant_group');
  });

  it('names what a plugin lacks or gets wrong', () => {
    expect(() => checkPlugin(null, 'pkg')).toThrow('pkg: does not export a plugin');
    expect(() => checkPlugin({ ...base, slug: '' }, 'pkg')).toThrow('pkg: the plugin has no slug');
    expect(() => checkPlugin({ ...base, type: 'fax' }, 'pkg')).toThrow(/unknown plugin type "fax"/);
    expect(() => checkPlugin({ ...base, configuration: { type: 'string' } }, 'pkg')).toThrow('its configuration must be an object schema');
  });

  it('refuses a configuration schema that does not compile, or hides a secret below the top level', () => {
    expect(() => checkPlugin({ ...base, configuration: schema({ port: { type: 'integer', minimum: 'one' } }) }, 'pkg')).toThrow(PluginLoadError);
    expect(() =>
      checkPlugin({ ...base, configuration: schema({ smtp: { type: 'object', properties: { password: { type: 'string', writeOnly: true } } } }) }, 'pkg'),
    ).toThrow('pkg: secret fields must be top-level properties of the configuration (smtp holds one)');
  });
});
