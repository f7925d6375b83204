import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

/** The navy call-to-action panel near the end of the loan pages: an h2, a line of text and buttons. */
export function CtaPanel({
  id,
  title,
  text,
  centered = false,
  children,
}: {
  id: string;
  title: ReactNode;
  text: string;
  centered?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mx-auto w-full max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
      <div className={cn("on-dark rounded-2xl bg-primary px-6 py-10", centered && "text-center", "text-white sm:px-12")}>
        <h2 id={id} className="text-2xl font-bold tracking-tight sm:text-3xl">
          {title}
        </h2>
        <p className={cn(centered && "mx-auto", "mt-3 max-w-2xl text-navy-100")}>{text}</p>
        {children}
      </div>
    </section>
  );
}
