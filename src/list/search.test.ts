import { describe, expect, it } from 'vitest';
import { toPrefixQuery, toTsQuery } from './search.ts';

describe('q to tsquery', () => {
  it.each([
    ['incident', 'incident:*'],
    ['Security Incident', '(security:* & incident:*)'],
    ['db or network', '(db:* | network:*)'],
    ['db -network', '(db:* & !network:*)'],
    ['"data breach" aws', '((data <-> breach) & aws:*)'],
    ['(a or b) c', '((a:* | b:*) & c:*)'],
    ['user@example.com', '(user:* & example:* & com:*)'],
    ["it's", '(it:* & s:*)'],
    ['(unbalanced', 'unbalanced:*'],
    ['stray)', 'stray:*'],
    ['   ', null],
    ['!!! ::', null],
    ['-', null],
    ['or', null],
    ['--word', 'word:*'],
    ['---word', '!word:*'],
    [`${'-'.repeat(33)}word`, '!word:*'],
  ])('%s -> %s', (q, expected) => {
    expect(toTsQuery(q)).toBe(expected);
  });
});

describe('q to a tsquery over word prefixes', () => {
  it.each([
    ['incident', 'incident', true],
    ['Security Incident', '(security & incident)', true],
    ['db or network', '(db | network)', true],
    ['recommendations', 'recommendations:*', true],
    ['db -network', 'db', false],
    ['-network', null, false],
    ['db or -network', null, false],
    ['"data breach" aws', '((data & breach) & aws)', false],
    ['snake_case', '(snake & case)', false],
    ['   ', null, true],
  ])('%s -> %s (exact: %s)', (q, tsquery, exact) => {
    expect(toPrefixQuery(q)).toEqual({ tsquery, exact });
  });
});
