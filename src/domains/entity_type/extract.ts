// Entity extraction: the values an entity type finds in a piece of signal data.
//
// - A regular expression alone: every string value anywhere in the data is searched, and the first
//   match of each string (the whole match) is taken.
// - A JSONPath: the string values it selects are taken whole, or their first regular-expression match
//   when the type also has one. Values of other types are skipped.
// - Neither: nothing. Empty matches are dropped, and each value is returned once, in document order.
//
// Regular expressions come from users, and a backtracking one (`(a+)+$`) can take exponential time.
// So each string is searched in its first MAX_STRING_LENGTH characters only, and the searches of one
// call run inside a VM context with a time budget: past it the call throws ExtractionTimeout instead
// of holding the event loop. Patterns are not refused for their shape when saved: nested quantifiers
// are common in sound patterns (`(\d{1,3}\.){3}\d{1,3}`), and the budget bounds every pattern anyway.
import vm from 'node:vm';
import { evaluateJsonPath, JsonPathError, parseJsonPath, selfAndDescendants } from './jsonpath.ts';

export const MAX_STRING_LENGTH = 64 * 1024;
export const TIME_BUDGET_MS = 250;

export interface Extractor {
  regular_expression?: string | null;
  jpath?: string | null;
}

export class ExtractionTimeout extends Error {
  constructor(
    readonly pattern: string,
    readonly budgetMs: number,
  ) {
    super(`The regular expression ${JSON.stringify(pattern)} took longer than ${budgetMs} ms.`);
  }
}

/** Why a regular expression cannot be saved, or undefined when it compiles (JavaScript syntax). */
export function regularExpressionProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

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

// One context for every search: creating one costs far more than a search. Calls are synchronous,
// so two never share it at the same time.
let sandbox: vm.Context | undefined;
const search = new vm.Script(`(() => {
  const re = new RegExp(pattern);
  const out = [];
  for (const s of strings) {
    const m = re.exec(s);
    out.push(m ? m[0] : '');
  }
  return out;
})()`);

/** The first match of `pattern` in each string ('' for none), within the time budget. */
export function firstMatches(pattern: string, strings: string[], budgetMs = TIME_BUDGET_MS): string[] {
  if (strings.length === 0) return [];
  sandbox ??= vm.createContext({});
  sandbox.pattern = pattern;
  sandbox.strings = strings.map((s) => (s.length > MAX_STRING_LENGTH ? s.slice(0, MAX_STRING_LENGTH) : s));
  try {
    return [...(search.runInContext(sandbox, { timeout: budgetMs }) as string[])];
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new ExtractionTimeout(pattern, budgetMs);
    throw err;
  } finally {
    sandbox.strings = undefined;
  }
}

/** The values the entity type finds in `data`. */
export function extract(type: Extractor, data: unknown, budgetMs = TIME_BUDGET_MS): string[] {
  const pattern = type.regular_expression || undefined;
  const jpath = type.jpath || undefined;
  if (!pattern && !jpath) return [];
  const selected = jpath ? evaluateJsonPath(parseJsonPath(jpath), data) : selfAndDescendants(data);
  const strings = selected.filter((v): v is string => typeof v === 'string');
  const found = pattern ? firstMatches(pattern, strings, budgetMs) : strings;
  return [...new Set(found.filter((v) => v !== ''))];
}

// Several types over one document in one sandboxed call (ingestion runs every type of a signal).
const searchMany = new vm.Script(`(() => {
  const out = [];
  for (const job of jobs) {
    const re = new RegExp(job.pattern);
    const found = [];
    for (const s of job.strings) {
      const m = re.exec(s);
      found.push(m ? m[0] : '');
    }
    out.push(found);
  }
  return out;
})()`);

/**
 * The values each type finds in `data`, as `extract` finds them, with one time budget for all of
 * them (the document's strings are collected once). Throws ExtractionTimeout naming the pattern
 * that ran out of time.
 */
export function extractAll(types: Extractor[], data: unknown, budgetMs = TIME_BUDGET_MS): string[][] {
  return extractEach([{ types, data }], budgetMs)[0];
}

/**
 * extractAll for several documents in one sandboxed call with one time budget (a batch of signal
 * instances: starting the call's watchdog costs more than searching a few kilobytes). When the
 * budget runs out, the caller learns which document to blame by extracting each alone.
 */
export function extractEach(docs: { types: Extractor[]; data: unknown }[], budgetMs = TIME_BUDGET_MS): string[][][] {
  const jobs: { pattern: string; strings: string[] }[] = [];
  const plans = docs.map(({ types, data }) => {
    let everything: unknown[] | undefined;
    return types.map((type) => {
      const pattern = type.regular_expression || undefined;
      const jpath = type.jpath || undefined;
      if (!pattern && !jpath) return { strings: [] as string[] };
      const selected = jpath ? evaluateJsonPath(parseJsonPath(jpath), data) : (everything ??= selfAndDescendants(data));
      const strings = selected.filter((v): v is string => typeof v === 'string').map((s) => (s.length > MAX_STRING_LENGTH ? s.slice(0, MAX_STRING_LENGTH) : s));
      if (!pattern) return { strings };
      jobs.push({ pattern, strings });
      return { job: jobs.length - 1, strings };
    });
  });
  let matched: string[][] = [];
  if (jobs.some((j) => j.strings.length > 0)) {
    sandbox ??= vm.createContext({});
    sandbox.jobs = jobs;
    try {
      matched = [...(searchMany.runInContext(sandbox, { timeout: budgetMs }) as string[][])];
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw new ExtractionTimeout([...new Set(jobs.map((j) => j.pattern))].join(' | '), budgetMs);
      }
      throw err;
    } finally {
      sandbox.jobs = undefined;
    }
  }
  return plans.map((plan) =>
    plan.map((p) => {
      const found = p.job === undefined ? p.strings : (matched[p.job] ?? []);
      return [...new Set(found.filter((v) => v !== ''))];
    }),
  );
}
