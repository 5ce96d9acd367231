import { describe, expect, it } from 'vitest';
import { toTsQuery } from './search.ts';

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
