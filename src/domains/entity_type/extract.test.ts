import { describe, expect, it } from 'vitest';
import { extract, extractAll, jsonPathProblem, MAX_STRING_LENGTH, type Refused, regularExpressionProblem } from './extract.ts';
import { evaluateJsonPath, JsonPathError, parseJsonPath } from './jsonpath.ts';

const raw = {
  id: 'abc-123',
  user: { email: 'alice@example.com', name: 'Alice', roles: ['admin', 'dev'] },
  hosts: [
    { name: 'web-1', ip: '10.0.0.1', tags: { env: 'prod' } },
    { name: 'web-2', ip: '10.0.0.2', tags: { env: 'dev' } },
  ],
  'odd key': { "it's": 'quoted', '': 'empty key' },
  count: 3,
  nested: { deeper: { name: 'deep', list: [[1, 'x'], { name: 'in list' }] } },
  message: 'login from 10.0.0.1 and 192.168.1.20 by bob@example.com',
};

const path = (expr: string, data: unknown = raw) => evaluateJsonPath(parseJsonPath(expr), data);

describe('JSONPath subset', () => {
  it('selects members, indexes, wildcards and descendants', () => {
    expect(path('$')).toEqual([raw]);
    expect(path('$.user.email')).toEqual(['alice@example.com']);
    expect(path('user.email')).toEqual(['alice@example.com']);
    expect(path("$['user']['name']")).toEqual(['Alice']);
    expect(path('$["odd key"]["it\'s"]')).toEqual(['quoted']);
    expect(path("$['odd key']['it\\'s']")).toEqual(['quoted']);
    expect(path("$['odd key']['']")).toEqual(['empty key']);
    expect(path('$.@timestamp', { '@timestamp': 't' })).toEqual(['t']);
    expect(path('$.user.roles[0]')).toEqual(['admin']);
    expect(path('$.user.roles[-1]')).toEqual(['dev']);
    expect(path('$.user.roles[2]')).toEqual([]);
    expect(path('$.hosts[*].ip')).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(path('$.hosts.*.name')).toEqual(['web-1', 'web-2']);
    expect(path('$.user[*]')).toEqual(['alice@example.com', 'Alice', ['admin', 'dev']]);
    expect(path('$..env')).toEqual(['prod', 'dev']);
    expect(path('$..name')).toEqual(['Alice', 'web-1', 'web-2', 'deep', 'in list']);
    expect(path('$.hosts..name')).toEqual(['web-1', 'web-2']);
    expect(path('$..[0]')).toEqual(['admin', { name: 'web-1', ip: '10.0.0.1', tags: { env: 'prod' } }, [1, 'x'], 1]);
    expect(path("$..['env']")).toEqual(['prod', 'dev']);
    expect(path('$.nested..*').filter((v) => typeof v === 'string')).toEqual(['deep', 'x', 'in list']);
  });

  it('matches nothing where the data has another shape', () => {
    expect(path('$.count.value')).toEqual([]);
    expect(path('$.user[0]')).toEqual([]);
    expect(path('$.hosts.name')).toEqual([]);
    expect(path('$.missing..name')).toEqual([]);
    expect(path('$.a', 'text')).toEqual([]);
    expect(path('$.constructor')).toEqual([]);
    expect(path('$.toString', {})).toEqual([]);
  });

  it('refuses anything outside the subset, saying where', () => {
    const cases: [string, number][] = [
      ['', 0],
      ['$.', 2],
      ['$..', 3],
      ['$.a.', 4],
      ['$[', 2],
      ['$[0', 3],
      ["$['a'", 5],
      ["$['a]", 2],
      ['$[?(@.a)]', 2],
      ['$[0:2]', 3],
      ['$[0,1]', 3],
      ['$.a b', 3],
      ['$$', 1],
      ['$.a[*', 5],
      ["$['\\x']", 3],
      ['.a', 0],
      ['$.1abc', 2],
      ['$[99999999999999999999]', 2],
    ];
    for (const [expr, position] of cases) {
      let err: unknown;
      try {
        parseJsonPath(expr);
      } catch (e) {
        err = e;
      }
      expect(err, expr).toBeInstanceOf(JsonPathError);
      expect({ expr, position: (err as JsonPathError).position }).toEqual({ expr, position });
    }
    expect(jsonPathProblem('$.a[?(@.b)]')).toBe("expected a quoted name, an index or '*' at position 4");
    expect(jsonPathProblem('$.hosts[*].ip')).toBeUndefined();
  });

  it('walks deeply nested data without running out of stack', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(path('$..a', deep).length).toBe(100_000);
    expect(extract({ regular_expression: 'bot+om' }, deep)).toEqual(['bottom']);
  });
});

describe('extraction', () => {
  it('with a regular expression alone, searches every string value: first match of each, whole match', () => {
    expect(extract({ regular_expression: '\\d+\\.\\d+\\.\\d+\\.\\d+' }, raw)).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(extract({ regular_expression: '[\\w.]+@example\\.com' }, raw)).toEqual(['alice@example.com', 'bob@example.com']);
    // Keys are not values; numbers are not strings.
    expect(extract({ regular_expression: 'odd' }, raw)).toEqual([]);
    expect(extract({ regular_expression: '^3$' }, raw)).toEqual([]);
  });

  it('with a JSONPath alone, takes the selected strings whole', () => {
    expect(extract({ jpath: '$.hosts[*].ip' }, raw)).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(extract({ jpath: '$.hosts[*]' }, raw)).toEqual([]);
    expect(extract({ jpath: '$.count' }, raw)).toEqual([]);
    expect(extract({ jpath: '$..env', regular_expression: null }, raw)).toEqual(['prod', 'dev']);
  });

  it('with both, takes the first match in each selected string', () => {
    expect(extract({ jpath: '$.message', regular_expression: '\\d+\\.\\d+\\.\\d+\\.\\d+' }, raw)).toEqual(['10.0.0.1']);
    expect(extract({ jpath: '$..name', regular_expression: '^web-(\\d)' }, raw)).toEqual(['web-1', 'web-2']);
    expect(extract({ jpath: '$.user.name', regular_expression: 'nomatch' }, raw)).toEqual([]);
  });

  it('drops empty matches and duplicates, and finds nothing without an expression', () => {
    expect(extract({ regular_expression: 'z*' }, raw)).toEqual([]);
    expect(extract({ jpath: '$..ip', regular_expression: '10\\.0\\.0' }, raw)).toEqual(['10.0.0']);
    expect(extract({}, raw)).toEqual([]);
    expect(extract({ jpath: '', regular_expression: '' }, raw)).toEqual([]);
    expect(extract({ regular_expression: 'x' }, 'x marks')).toEqual(['x']);
  });

  it('searches only the first MAX_STRING_LENGTH characters of a string', () => {
    const long = `${'a'.repeat(MAX_STRING_LENGTH)}NEEDLE`;
    expect(extract({ regular_expression: 'NEEDLE' }, { long })).toEqual([]);
    expect(extract({ regular_expression: 'NEEDLE' }, { short: 'a NEEDLE' })).toEqual(['NEEDLE']);
  });

  it('runs a catastrophically backtracking expression in linear time', () => {
    // A backtracking engine takes longer than the age of the universe over this text.
    const text = `${'a'.repeat(MAX_STRING_LENGTH - 1)}!`;
    const started = Date.now();
    expect(extract({ regular_expression: '(a+)+$' }, { s: text, t: text, u: 'aaa' })).toEqual(['aaa']);
    expect(extract({ regular_expression: '(x+x+)+y' }, { s: 'x'.repeat(MAX_STRING_LENGTH) })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('skips a stored type whose pattern RE2 refuses, saying why, and runs the others', () => {
    const refused: Refused[] = [];
    const types = [{ regular_expression: '(\\w)\\1' }, { regular_expression: '\\d+\\.\\d+\\.\\d+\\.\\d+' }];
    expect(extractAll(types, raw, (r) => refused.push(r))).toEqual([[], ['10.0.0.1', '10.0.0.2']]);
    expect(refused).toEqual([{ type: types[0], reason: expect.stringMatching(/^backreferences are not supported/) }]);
  });

  it('checks regular expressions with RE2 syntax, naming what RE2 never runs', () => {
    expect(regularExpressionProblem('^[a-z]+@(example|test)\\.com$')).toBeUndefined();
    expect(regularExpressionProblem('(?<user>\\w+)@')).toBeUndefined();
    expect(regularExpressionProblem('(?P<user>\\w+)')).toBeUndefined();
    expect(regularExpressionProblem('(?i)admin')).toBeUndefined();
    expect(regularExpressionProblem('(unclosed')).toMatch(/missing closing \)/);
    expect(regularExpressionProblem('[z-a]')).toMatch(/invalid character class range/);
    expect(regularExpressionProblem('(a)\\1')).toMatch(/^backreferences are not supported/);
    expect(regularExpressionProblem('(?<name>a)\\k<name>')).toMatch(/^backreferences are not supported/);
    expect(regularExpressionProblem('foo(?=bar)')).toMatch(/^lookahead and lookbehind assertions are not supported/);
    expect(regularExpressionProblem('(?<!x)y')).toMatch(/^lookahead and lookbehind assertions are not supported/);
    // An escaped parenthesis is a literal, not a lookahead.
    expect(regularExpressionProblem('\\(?=')).toBeUndefined();
  });

  it('reads \\uXXXX and \\u{X...} escapes, and RE2 syntax JavaScript lacks', () => {
    expect(extract({ regular_expression: '\\u0041\\u{42}+' }, { s: 'xABBy' })).toEqual(['ABB']);
    expect(extract({ regular_expression: '\\\\u0041' }, { s: 'a\\u0041' })).toEqual(['\\u0041']);
    expect(extract({ regular_expression: '(?i)ADMIN-\\d+' }, { s: 'by admin-7' })).toEqual(['admin-7']);
  });
});
