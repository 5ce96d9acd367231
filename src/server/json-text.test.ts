import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { installJsonText, jsonText } from './json-text.ts';

const Shape = Type.Object({ id: Type.Integer(), name: Type.String(), note: Type.Optional(Type.String({ nullable: true })) }, { required: ['id', 'name'] });

async function appWith(text: string, check: boolean) {
  const app = Fastify();
  installJsonText(app, { check });
  app.get('/t', { schema: { response: { 200: Shape } } }, async () => jsonText<{ id: number; name: string }>(text));
  app.get('/o', { schema: { response: { 200: Shape } } }, async () => ({ id: 1, name: 'x', extra: true }));
  await app.ready();
  return app;
}

describe('responses whose JSON text PostgreSQL writes', () => {
  it('are sent as they are, with the JSON content type', async () => {
    const app = await appWith('{"id":1,"name":"a"}', true);
    const res = await app.inject({ url: '/t' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe('{"id":1,"name":"a"}');
    // Other routes serialize as ever.
    expect((await app.inject({ url: '/o' })).body).toBe('{"id":1,"name":"x"}');
  });

  it('fail the request, when checked, if the serializer would write other bytes', async () => {
    // Key order, a field the shape leaves out, spacing: each differs from the serializer's text.
    for (const text of ['{"name":"a","id":1}', '{"id":1,"name":"a","extra":1}', '{"id": 1,"name":"a"}']) {
      const app = await appWith(text, true);
      expect((await app.inject({ url: '/t' })).statusCode).toBe(500);
      // Unchecked (production), the text goes out as PostgreSQL wrote it.
      expect((await (await appWith(text, false)).inject({ url: '/t' })).body).toBe(text);
    }
  });
});
