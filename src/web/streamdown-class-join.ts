// Stands in for `tailwind-merge` inside Streamdown (vite.config.ts aliases it here). Streamdown
// merges its Tailwind classes with ours; Weft has no Tailwind stylesheet, so those classes style
// nothing and which of two conflicting ones wins cannot matter. Joining them is enough.

/** The class names that are set, space-separated, as `twMerge` returns them. */
export function twMerge(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(" ");
}
