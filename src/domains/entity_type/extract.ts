// Entity extraction: the values an entity type finds in a piece of signal data.
//
// - A regular expression alone: every string value anywhere in the data is searched, and the first
//   match of each string (the whole match) is taken.
// - A JSONPath: the string values it selects are taken whole, or their first regular-expression match
//   when the type also has one. Values of other types are skipped.
// - Neither: nothing. Empty matches are dropped, and each value is returned once, in document order.
//
// Regular expressions come from users: they run on RE2 (pattern.ts), in time linear in the text,
// so no pattern can hold the event loop by backtracking. Each string is searched in its first
// MAX_STRING_LENGTH characters only, which bounds a search by the pattern alone.
import { evaluateJsonPath, JsonPathError, parseJsonPath, selfAndDescendants } from './jsonpath.ts';
import { PatternError, patternOf, patternProblem } from './pattern.ts';

export const MAX_STRING_LENGTH = 64 * 1024;

export interface Extractor {
  regular_expression?: string | null;
  jpath?: string | null;
}

/** Why a regular expression cannot be saved, or undefined when RE2 runs it. */
export const regularExpressionProblem = patternProblem;

/** Why a JSONPath cannot be saved, or undefined when it parses. */
export function jsonPathProblem(expression: string): string | undefined {
  try {
    parseJsonPath(expression);
    return undefined;
  } catch (err) {
    if (err instanceof JsonPathError) return err.message;
    throw err;
  }
}

/** A type saved before its pattern was checked as it is now, whose pattern RE2 refuses: it finds nothing. */
export interface Refused {
  type: Extractor;
  reason: string;
}

const clip = (s: string) => (s.length > MAX_STRING_LENGTH ? s.slice(0, MAX_STRING_LENGTH) : s);

/**
 * The values each type finds in `data`; a type whose pattern RE2 refuses finds nothing and is
 * reported to `refused`. The document's strings are collected once for the types that scan them all.
 */
export function extractAll(types: Extractor[], data: unknown, refused?: (r: Refused) => void): string[][] {
  let everything: string[] | undefined;
  return types.map((type) => {
    const pattern = type.regular_expression || undefined;
    const jpath = type.jpath || undefined;
    if (!pattern && !jpath) return [];
    let search: ((s: string) => string) | undefined;
    if (pattern) {
      try {
        const p = patternOf(pattern);
        search = (s) => p.firstMatch(clip(s));
      } catch (err) {
        if (!(err instanceof PatternError)) throw err;
        refused?.({ type, reason: err.message });
        return [];
      }
    }
    const strings = jpath
      ? evaluateJsonPath(parseJsonPath(jpath), data).filter((v): v is string => typeof v === 'string')
      : (everything ??= selfAndDescendants(data).filter((v): v is string => typeof v === 'string'));
    const found = new Set<string>();
    for (const s of strings) {
      const v = search ? search(s) : clip(s);
      if (v !== '') found.add(v);
    }
    return [...found];
  });
}

/** The values one entity type finds in `data`. */
export const extract = (type: Extractor, data: unknown, refused?: (r: Refused) => void): string[] => extractAll([type], data, refused)[0];
