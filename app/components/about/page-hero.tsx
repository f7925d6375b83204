import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

/** The navy band that opens a content page: the page's one <h1>, a lead paragraph and optional actions. */
export function PageHero({
  eyebrow,
  title,
  lead,
  children,
}: {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="on-dark bg-navy-900 text-white">
      <div className="mx-auto w-full max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
        {eyebrow ? <p className="text-sm font-semibold tracking-wide text-gold-400 uppercase">{eyebrow}</p> : null}
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl lg:text-5xl">{title}</h1>
        {lead ? <p className="mt-4 max-w-3xl text-lg text-slate-200">{lead}</p> : null}
        {children ? <div className="mt-8">{children}</div> : null}
      </div>
    </section>
  );
}

/** A page section with an <h2> and an optional intro; `id` makes it a link target. */
export function PageSection({
  id,
  title,
  intro,
  children,
  className,
  tone = "plain",
}: {
  id?: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  className?: string;
  tone?: "plain" | "muted";
}) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section id={id} aria-labelledby={headingId} className={cn(tone === "muted" && "bg-muted", className)}>
      <div className="mx-auto w-full max-w-6xl px-4 py-14 sm:px-6 sm:py-16">
        <h2 id={headingId} className="text-2xl font-bold tracking-tight text-primary sm:text-3xl">
          {title}
        </h2>
        {intro ? <p className="mt-3 max-w-3xl text-muted-foreground">{intro}</p> : null}
        <div className="mt-8">{children}</div>
      </div>
    </section>
  );
}
