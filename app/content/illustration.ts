/**
 * One of our own SVG illustrations in public/images (no photographs of real people), with its
 * intrinsic size so the page does not shift while it loads.
 */
export type Illustration = { src: string; alt: string; width: number; height: number };

/** /images/<folder>/<slug>.svg at the given size. */
export function illustration(folder: "leaders" | "loans", slug: string, alt: string, size: { width: number; height: number }): Illustration {
  return { src: `/images/${folder}/${slug}.svg`, alt, ...size };
}
