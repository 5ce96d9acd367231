// The tags (ETags) of the last few versions of each record the UI read or wrote, by path. A save
// names the version it was based on (If-Match): the one shown when the edit began, which may be a few
// polls old. The tag is found by the record's content, so it always belongs to that exact version.

const KEPT = 8;
const versions = new Map<string, { text: string; tag: string }[]>();

export function remember(path: string, text: string, tag: string) {
  const known = (versions.get(path) ?? []).filter((v) => v.tag !== tag);
  known.unshift({ text: canonical(text), tag });
  versions.set(path, known.slice(0, KEPT));
}

/** The tag of `record` as it was read from `path`, if it is one of the versions kept. */
export function tagOf(path: string, record: unknown): string | undefined {
  const text = JSON.stringify(record);
  return versions.get(path)?.find((v) => v.text === text)?.tag;
}

const canonical = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
};

/** `If-Match` naming the version `record` was read as, when it is known: a save then never overwrites a newer one. */
export function ifMatch(path: string, record: unknown): Record<string, string> {
  const tag = tagOf(path, record);
  return tag ? { 'if-match': tag } : {};
}
