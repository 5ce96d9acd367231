// `q` as Dispatch reads it, turned into a PostgreSQL tsquery text: words are prefix matches and
// ANDed, the word `or` gives OR, `-word` negates, "a phrase" is a phrase, parentheses group.
// Lexemes are reduced to letters, digits and underscores, so the text is always a valid tsquery.
// What the parser builds is bounded (terms, nesting of parentheses) and repeated negations
// collapse, so neither this parser's recursion nor PostgreSQL's tsquery parser (32 operators
// deep) can be exhausted by a client: past a bound, `q` is 422.
import { validationError } from '../server/errors.ts';

/** The most words (lexemes) a `q` may hold. */
export const MAX_SEARCH_TERMS = 256;
/** The deepest nesting of parentheses in a `q`. */
export const MAX_SEARCH_DEPTH = 32;

const tooComplex = (msg: string, limit: number) =>
  validationError([{ loc: ['query', 'q'], msg, type: 'value_error.search.too_complex', ctx: { limit_value: limit } }]);

type Node = string | null;

function tokenize(q: string): string[] {
  return q.match(/"[^"]*"?|\(|\)|[^\s()"]+/g) ?? [];
}

function lexemes(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
}

const join = (op: string, parts: Node[]): Node => {
  const kept = parts.filter((p): p is string => !!p);
  if (kept.length === 0) return null;
  return kept.length === 1 ? kept[0] : `(${kept.join(` ${op} `)})`;
};

class Parser {
  private i = 0;
  private depth = 0;
  private terms = 0;
  constructor(private readonly tokens: string[]) {}

  parse(): Node {
    const parts: Node[] = [];
    while (this.i < this.tokens.length) {
      if (this.tokens[this.i] === ')') {
        this.i++; // a stray closing parenthesis carries no meaning
        continue;
      }
      parts.push(this.or());
    }
    return join('&', parts);
  }

  private or(): Node {
    const parts = [this.and()];
    while (this.peek()?.toLowerCase() === 'or') {
      this.i++;
      parts.push(this.and());
    }
    return join('|', parts);
  }

  private and(): Node {
    const parts: Node[] = [];
    for (let t = this.peek(); t !== undefined && t !== ')' && t.toLowerCase() !== 'or'; t = this.peek()) parts.push(this.unary());
    return join('&', parts);
  }

  /** `-word` negates; `--word` is `word` again: only the parity of the dashes counts. */
  private unary(): Node {
    const t = this.tokens[this.i];
    let dashes = 0;
    while (dashes < t.length - 1 && t[dashes] === '-') dashes++;
    if (dashes === 0) return this.atom();
    this.tokens[this.i] = t.slice(dashes);
    const inner = this.atom();
    return inner && dashes % 2 === 1 ? `!${inner}` : inner;
  }

  private atom(): Node {
    const t = this.tokens[this.i++];
    if (t === '(') {
      if (++this.depth > MAX_SEARCH_DEPTH) throw tooComplex(`q nests parentheses deeper than ${MAX_SEARCH_DEPTH} levels`, MAX_SEARCH_DEPTH);
      const inner = this.or();
      this.depth--;
      if (this.peek() === ')') this.i++;
      return inner;
    }
    if (t.startsWith('"')) return join('<->', this.counted(lexemes(t.replace(/"/g, ''))));
    return join(
      '&',
      this.counted(lexemes(t)).map((l) => `${l}:*`),
    );
  }

  private counted(words: string[]): string[] {
    this.terms += words.length;
    if (this.terms > MAX_SEARCH_TERMS) throw tooComplex(`q holds more than ${MAX_SEARCH_TERMS} search terms`, MAX_SEARCH_TERMS);
    return words;
  }

  private peek(): string | undefined {
    return this.tokens[this.i];
  }
}

/** The tsquery text for `q`, or null when `q` holds nothing searchable. */
export function toTsQuery(q: string | undefined): string | null {
  if (!q?.trim()) return null;
  return new Parser(tokenize(q)).parse();
}
