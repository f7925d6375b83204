import type { ComponentProps, ReactNode } from "react";

export type HeadedSectionProps = Omit<ComponentProps<"section">, "title" | "aria-labelledby"> & {
  /** The heading's id; the wrapper is named by it (aria-labelledby), so it must be unique on the page. */
  titleId: string;
  title: ReactNode;
  /** The wrapper element: a self-contained document (the loan agreement) is an <article>. */
  as?: "section" | "article";
  /** Keeps the page's heading order: h2 under the page's h1, h3 inside an h2 section. */
  level?: "h2" | "h3";
  headingClassName?: string;
  /** A line under the heading; heading and line then stand together in a <header>. */
  lead?: ReactNode;
  leadClassName?: string;
};

/**
 * A section named by its own heading: the heading carries `titleId` and the wrapper points at it with
 * aria-labelledby, so the region's accessible name is always the visible heading text.
 */
export function HeadedSection({ titleId, title, as: Wrapper = "section", level: Heading = "h2", headingClassName, lead, leadClassName, children, ...props }: HeadedSectionProps) {
  const heading = (
    <Heading id={titleId} className={headingClassName}>
      {title}
    </Heading>
  );
  return (
    <Wrapper aria-labelledby={titleId} {...props}>
      {lead === undefined ? (
        heading
      ) : (
        <header>
          {heading}
          <p className={leadClassName}>{lead}</p>
        </header>
      )}
      {children}
    </Wrapper>
  );
}
