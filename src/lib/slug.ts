// Slugs as Dispatch derives them: lower-cased, accents folded to ASCII, every run of other
// characters replaced by one separator, separators trimmed from both ends ("My Org!" -> my_org).
export function slugify(text: string, separator = '_'): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^\\${separator}+|\\${separator}+$`, 'g'), '');
}
