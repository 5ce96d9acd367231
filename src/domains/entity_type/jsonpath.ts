// A small, strict JSONPath: the subset entity types use to point into signal data.
//
//   $            the root (optional at the start: `user.email` reads as `$.user.email`)
//   .name        a member (letters, digits, _, @ and -; `@timestamp` too)
//   ['name']     a member, any characters (also ["name"]; \' \" \\ escape)
//   [n]          an array element (n < 0 counts from the end)
//   [*]  .*      every element of an array, or every member value of an object
//   ..name       `name` members at any depth, the current value included; also ..*, ..[n], ..['name']
//
// Anything else (filters, slices, unions, scripts) is refused with the position of the problem, so a
// saved expression either means exactly this or is not saved.

export class JsonPathError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} at position ${position}`);
  }
}

type Selector = { kind: 'member'; name: string } | { kind: 'index'; index: number } | { kind: 'wildcard' };
export type Step = Selector & { descendant: boolean };

const NAME = /[\p{L}_@][\p{L}\p{N}_@-]*/uy;
const INDEX = /-?\d+/y;

export function parseJsonPath(expression: string): Step[] {
  const src = expression;
  let pos = 0;
  const steps: Step[] = [];
  const fail = (reason: string): never => {
    throw new JsonPathError(reason, pos);
  };
  const match = (re: RegExp) => {
    re.lastIndex = pos;
    const m = re.exec(src);
    if (m) pos += m[0].length;
    return m?.[0];
  };

  const bracket = (descendant: boolean) => {
    pos++; // [
    let selector: Selector;
    if (src[pos] === '*') {
      pos++;
      selector = { kind: 'wildcard' };
    } else if (src[pos] === "'" || src[pos] === '"') {
      selector = { kind: 'member', name: quoted() };
    } else {
      const start = pos;
      const digits = match(INDEX);
      if (digits === undefined) fail("expected a quoted name, an index or '*'");
      const index = Number(digits);
      if (!Number.isSafeInteger(index)) {
        pos = start;
        fail('index out of range');
      }
      selector = { kind: 'index', index };
    }
    if (src[pos] !== ']') fail("expected ']'");
    pos++;
    steps.push({ ...selector, descendant });
  };

  const quoted = (): string => {
    const start = pos;
    const quote = src[pos++];
    let out = '';
    while (pos < src.length && src[pos] !== quote) {
      if (src[pos] === '\\') {
        const next = src[pos + 1];
        if (next !== "'" && next !== '"' && next !== '\\') fail('unknown escape in a quoted name');
        out += next;
        pos += 2;
      } else out += src[pos++];
    }
    if (pos >= src.length) {
      pos = start;
      fail('unterminated quoted name');
    }
    pos++;
    return out;
  };

  const dotted = (descendant: boolean) => {
    if (src[pos] === '*') {
      pos++;
      steps.push({ kind: 'wildcard', descendant });
      return;
    }
    if (descendant && src[pos] === '[') return bracket(true);
    const name = match(NAME);
    if (name === undefined) fail('expected a name');
    steps.push({ kind: 'member', name: name!, descendant });
  };

  if (src.trim() === '') fail('empty expression');
  if (src[0] === '$') pos = 1;
  else if (src[0] !== '[') dotted(false); // a leading bare name (or `*`)
  while (pos < src.length) {
    const c = src[pos];
    if (c === '.') {
      if (src[pos + 1] === '.') {
        pos += 2;
        dotted(true);
      } else {
        pos++;
        dotted(false);
      }
    } else if (c === '[') {
      bracket(false);
    } else {
      fail(`unexpected '${c}'`);
    }
  }
  return steps;
}

function children(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') return Object.values(value);
  return [];
}

function select(value: unknown, s: Selector): unknown[] {
  switch (s.kind) {
    case 'member':
      return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, s.name)
        ? [(value as Record<string, unknown>)[s.name]]
        : [];
    case 'index': {
      if (!Array.isArray(value)) return [];
      const i = s.index < 0 ? value.length + s.index : s.index;
      return i >= 0 && i < value.length ? [value[i]] : [];
    }
    case 'wildcard':
      return children(value);
  }
}

/** The value and everything under it, in document order (iteratively: signal data may nest deeply). */
export function selfAndDescendants(value: unknown): unknown[] {
  const out: unknown[] = [];
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    out.push(v);
    const c = children(v);
    for (let i = c.length - 1; i >= 0; i--) stack.push(c[i]);
  }
  return out;
}

/** The values the path selects in `data`, in document order. */
export function evaluateJsonPath(steps: Step[], data: unknown): unknown[] {
  let current: unknown[] = [data];
  for (const step of steps) {
    const from = step.descendant ? current.flatMap((v) => selfAndDescendants(v)) : current;
    current = from.flatMap((v) => select(v, step));
  }
  return current;
}
