import type { TimelineItem } from "~/content/timeline";

/** The company's milestones: a vertical line with a dot per year (an ordered list). */
export function CompanyTimeline({ items }: { items: readonly TimelineItem[] }) {
  return (
    <ol className="relative ml-3 border-l-2 border-navy-200 sm:ml-4">
      {items.map((item) => (
        <li key={item.year} className="relative pb-10 pl-8 last:pb-0 sm:pl-10">
          <span
            aria-hidden="true"
            className="absolute top-1 -left-[9px] size-4 rounded-full border-2 border-white bg-gold-500 ring-2 ring-navy-200"
          />
          <p className="text-sm font-bold tracking-wide text-gold-700">
            <time dateTime={item.year}>{item.year}</time>
          </p>
          <h3 className="mt-1 text-lg font-semibold text-primary">{item.title}</h3>
          <p className="mt-1 max-w-2xl text-muted-foreground">{item.description}</p>
        </li>
      ))}
    </ol>
  );
}
