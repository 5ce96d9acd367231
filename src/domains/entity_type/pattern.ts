// The regular expressions of entity types run on RE2 (re2js, a pure JavaScript port of RE2/J):
// every search takes time linear in the text, whatever the pattern, so a user's pattern cannot
// stall ingestion by backtracking (`(a+)+$`). RE2 has no backreferences and no lookaround; such
// patterns are refused when saved. The syntax is RE2's, which reads Python's (`(?P<name>...)`,
// `(?i)`) and JavaScript's common forms alike; `\uXXXX` and `\u{X...}` are read as `\x{...}`.
import { RE2JS } from 're2js';

/** A compiled pattern: the first match in a text, or '' for none. */
export interface Pattern {
  firstMatch(text: string): string;
}

/** Why RE2 refuses a pattern: its reason, with a plainer one for what it never supports. */
export class PatternError extends Error {}

/** `\uXXXX` and `\u{X...}` (JavaScript, Python) as RE2's `\x{...}`; other escapes are left for RE2 to judge. */
function translateEscapes(pattern: string): string {
  if (!pattern.includes('\\u')) return pattern;
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = pattern[i + 1];
    if (next === 'u') {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(i + 2));
      const four = /^[0-9A-Fa-f]{4}/.exec(pattern.slice(i + 2));
      if (braced) {
        out += `\\x{${braced[1]}}`;
        i += 1 + braced[0].length;
        continue;
      }
      if (four) {
        out += `\\x{${four[0]}}`;
        i += 5;
        continue;
      }
    }
    // Any other escape, whole (so that `\\u` stays a backslash and a `u`).
    out += c + (next ?? '');
    i++;
  }
  return out;
}

/** What RE2 never runs, named plainly: backreferences and lookaround (escapes skipped pairwise). */
function unsupported(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<') || (next === 'g' && pattern[i + 2] === '<')) return 'backreferences';
      i++;
    } else if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i) || pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) {
      return 'lookahead and lookbehind assertions';
    } else if (pattern.startsWith('(?P=', i)) {
      return 'backreferences';
    }
  }
  return undefined;
}

function compile(pattern: string): Pattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(translateEscapes(pattern));
  } catch (err) {
    const what = unsupported(pattern);
    if (what) throw new PatternError(`${what} are not supported (patterns run in linear time, with RE2 syntax)`);
    throw new PatternError((err as Error).message.replace(/^error parsing regexp: /, ''));
  }
  return {
    firstMatch(text) {
      const m = re.matcher(text);
      return m.find() ? (m.group() ?? '') : '';
    },
  };
}

// Compiled patterns by their text: a pure function of the text, so nothing to invalidate on any node.
const compiled = new Map<string, Pattern | PatternError>();
const COMPILED_MAX = 1000;

/** The compiled pattern; throws PatternError when RE2 refuses it. */
export function patternOf(pattern: string): Pattern {
  let p = compiled.get(pattern);
  if (p === undefined) {
    try {
      p = compile(pattern);
    } catch (err) {
      if (!(err instanceof PatternError)) throw err;
      p = err;
    }
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(pattern, p);
  }
  if (p instanceof PatternError) throw p;
  return p;
}

/** Why a pattern cannot be saved, or undefined when RE2 runs it. */
export function patternProblem(pattern: string): string | undefined {
  try {
    patternOf(pattern);
    return undefined;
  } catch (err) {
    if (err instanceof PatternError) return err.message;
    throw err;
  }
}
