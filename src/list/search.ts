// `q` as Dispatch reads it, turned into a PostgreSQL tsquery text: words are prefix matches and
// ANDed, the word `or` gives OR, `-word` negates, "a phrase" is a phrase, parentheses group.
// Lexemes are reduced to letters, digits and underscores, so the text is always a valid tsquery.

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

  private unary(): Node {
    const t = this.tokens[this.i];
    if (t.length > 1 && t.startsWith('-')) {
      this.tokens[this.i] = t.slice(1);
      const inner = this.unary();
      return inner ? `!${inner}` : null;
    }
    return this.atom();
  }

  private atom(): Node {
    const t = this.tokens[this.i++];
    if (t === '(') {
      const inner = this.or();
      if (this.peek() === ')') this.i++;
      return inner;
    }
    if (t.startsWith('"')) return join('<->', lexemes(t.replace(/"/g, '')));
    return join(
      '&',
      lexemes(t).map((l) => `${l}:*`),
    );
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
