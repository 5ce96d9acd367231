// What every plugin Muster ships says of itself: its version and its author.
export const authoredByMuster = {
  version: '0.1.0',
  author: 'Muster',
  author_url: 'https://github.com/muster-project/muster',
} as const;
