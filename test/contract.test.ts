// The contract test: every operation Muster serves under /api/v1 is compared with the same operation
// of Dispatch's OpenAPI document (path and query parameters, request body, 200 response). Differences
// fail the test unless test/contract/allowlist.ts names them with a reason. See test/contract/compare.ts
// for what is compared and why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareAll, formatResult, loadContract, type Result } from './contract/run.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let result: Result;

beforeAll(async () => {
  t = await createTestApp();
  const ours = t.app.swagger() as Record<string, any>;
  const routes = t.app.muster.routes.flatMap((r) => r.methods.map((method) => ({ method, url: r.path })));
  result = compareAll(loadContract(), ours, routes);
  console.log(formatResult(result).join('\n'));
});
afterAll(() => t?.close());

describe('Dispatch API contract', () => {
  it('reads the whole contract', () => {
    expect(result.contractTotal).toBe(207);
  });

  it('serves only contract operations, each matching the contract', () => {
    const report = result.mismatches.map((m) => `${m.op} [${m.kind}] ${m.where}: ${m.message}`);
    expect(report).toEqual([]);
  });

  it('keeps no allow-list entry a served operation no longer needs', () => {
    expect(result.unusedDeviations.map((d) => `${d.kind} ${d.where} [${(d.ops ?? []).join(', ')}]`)).toEqual([]);
  });
});
