import type { ReactNode } from "react";
import { Reveal } from "~/components/reveal";
import { cn } from "~/utils/cn";

/** A home-page section's eyebrow, h2 and intro. `tone="dark"` for sections on navy. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  intro,
  tone = "light",
  className,
}: {
  id: string;
  eyebrow?: string;
  title: string;
  intro?: string;
  tone?: "light" | "dark";
  className?: string;
}) {
  const dark = tone === "dark";
  return (
    <div className={cn("mx-auto max-w-3xl text-center", className)}>
      {eyebrow ? (
        <p className={cn("text-sm font-semibold tracking-widest uppercase", dark ? "text-gold-400" : "text-gold-700")}>
          {eyebrow}
        </p>
      ) : null}
      <h2
        id={id}
        className={cn("mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl", dark ? "text-white" : "text-primary")}
      >
        {title}
      </h2>
      {intro ? (
        <p className={cn("mt-4 text-lg text-pretty", dark ? "text-navy-100" : "text-muted-foreground")}>{intro}</p>
      ) : null}
    </div>
  );
}

/**
 * A home-page section: labelled by its heading, revealed on scroll, content below the heading.
 * `className` adds the background (`bg-navy-50`, `on-dark bg-navy-950`).
 */
export function HomeSection({
  id,
  eyebrow,
  title,
  intro,
  tone,
  className,
  children,
}: {
  id: string;
  eyebrow: string;
  title: string;
  intro: string;
  tone?: "light" | "dark";
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={cn(className, "py-16 sm:py-24")}>
      <Reveal className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading id={id} tone={tone} eyebrow={eyebrow} title={title} intro={intro} />
        {children}
      </Reveal>
    </section>
  );
}
