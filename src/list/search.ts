// `q` as Dispatch reads it, turned into a PostgreSQL tsquery text: words are prefix matches and
// ANDed, the word `or` gives OR, `-word` negates, "a phrase" is a phrase, parentheses group.
// Lexemes are reduced to letters, digits and underscores, so the text is always a valid tsquery.
// What the parser builds is bounded (terms, nesting of parentheses) and repeated negations
// collapse, so neither this parser's recursion nor PostgreSQL's tsquery parser (32 operators
// deep) can be exhausted by a client: past a bound, `q` is 422.
import { PREFIX_LENGTH } from '../db/columns.ts';
import { validationError } from '../server/errors.ts';

/** The most words (lexemes) a `q` may hold. */
export const MAX_SEARCH_TERMS = 256;
/** The deepest nesting of parentheses in a `q`. */
export const MAX_SEARCH_DEPTH = 32;

const tooComplex = (msg: string, limit: number) =>
  validationError([{ loc: ['query', 'q'], msg, type: 'value_error.search.too_complex', ctx: { limit_value: limit } }]);

/** What `q` says, parsed: a word (a prefix, or exact within a phrase), words in a row, and, or, not. */
type Term = { word: string; prefix: boolean } | { op: '&' | '|' | '<->'; parts: Term[] } | { not: Term };
type Node = Term | null;

function tokenize(q: string): string[] {
  return q.match(/"[^"]*"?|\(|\)|[^\s()"]+/g) ?? [];
}

function lexemes(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
}

const join = (op: '&' | '|' | '<->', parts: Node[]): Node => {
  const kept = parts.filter((p): p is Term => p !== null);
  if (kept.length === 0) return null;
  return kept.length === 1 ? kept[0] : { op, parts: kept };
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
    return inner && dashes % 2 === 1 ? { not: inner } : inner;
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
    if (t.startsWith('"'))
      return join(
        '<->',
        this.counted(lexemes(t.replace(/"/g, ''))).map((word) => ({ word, prefix: false })),
      );
    return join(
      '&',
      this.counted(lexemes(t)).map((word) => ({ word, prefix: true })),
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

const parse = (q: string | undefined): Node => (q?.trim() ? new Parser(tokenize(q)).parse() : null);

function render(node: Term): string {
  if ('word' in node) return node.prefix ? `${node.word}:*` : node.word;
  if ('not' in node) return `!${render(node.not)}`;
  return `(${node.parts.map(render).join(` ${node.op} `)})`;
}

/** The tsquery text for `q`, or null when `q` holds nothing searchable. */
export function toTsQuery(q: string | undefined): string | null {
  const node = parse(q);
  return node && render(node);
}

/** `q` as a tsquery over the words' beginnings (db/columns.ts wordPrefixes), and whether it says exactly what `q` says. */
export interface PrefixQuery {
  /**
   * Null when nothing in `q` narrows the records down (only negations). Otherwise every record
   * whose words match `q` has prefixes that match this; a searched prefix is an exact lexeme here
   * (up to PREFIX_LENGTH letters; a longer one is a prefix among the indexed whole words), which an
   * index finds as fast as a whole word, where a prefix lookup walks every word it begins.
   */
  tsquery: string | null;
  /** It matches exactly the records `q` matches: only prefixes, and, or (no phrase, no negation). */
  exact: boolean;
}

/** The tsquery over word prefixes that finds the records `q` finds (and, unless `exact`, some more). */
export function toPrefixQuery(q: string | undefined): PrefixQuery {
  let exact = true;
  const over = (node: Term): string | null => {
    if ('word' in node) {
      if (!node.prefix) exact = false; // a whole word: those it begins are found too
      // PostgreSQL reads `a_b` as the phrase `a <-> b`, which a vector without positions never matches: its words instead.
      const words = node.word.split('_').filter(Boolean);
      if (words.length !== 1) exact = false;
      const terms = words.map((w) => (w.length <= PREFIX_LENGTH ? w : `${w}:*`));
      return terms.length === 0 ? null : terms.length === 1 ? terms[0] : `(${terms.join(' & ')})`;
    }
    if ('not' in node) {
      exact = false; // not narrowed by what it leaves out
      return null;
    }
    if (node.op === '<->') exact = false; // the words, wherever they stand
    const parts = node.parts.map(over);
    if (node.op === '|') return parts.includes(null) ? null : `(${parts.join(' | ')})`;
    const kept = parts.filter((p): p is string => p !== null);
    return kept.length === 0 ? null : kept.length === 1 ? kept[0] : `(${kept.join(' & ')})`;
  };
  const node = parse(q);
  return { tsquery: node && over(node), exact };
}
