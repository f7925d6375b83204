import { Construction } from "lucide-react";
import type { ReactNode } from "react";

/**
 * A page whose real content lands with a later issue: a proper <h1> and a plain note saying so.
 * Never shows data.
 */
export function PlaceholderPage({
  title,
  intro,
  release = "the public-website release",
  children,
}: {
  title: string;
  intro?: string;
  /** Which release brings the full content, e.g. "the accounts release". */
  release?: string;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-16 sm:px-6 sm:py-24">
      <h1 className="text-3xl font-bold tracking-tight text-primary sm:text-4xl">{title}</h1>
      {intro ? <p className="mt-4 text-lg text-muted-foreground">{intro}</p> : null}
      <p className="mt-8 flex items-start gap-3 rounded-lg border border-gold-500 bg-gold-200/30 p-4 text-sm text-slate-800">
        <Construction aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
        <span>This page is being built: its full content arrives with {release}.</span>
      </p>
      {children ? <div className="mt-8">{children}</div> : null}
    </div>
  );
}
