import { ChevronRight } from "lucide-react";
import { Link } from "react-router";

export type Crumb = { label: string; to?: string };

const TONES = {
  light: { list: "text-muted-foreground", link: "rounded-sm text-navy-700 hover:underline", current: "font-medium text-foreground" },
  dark: { list: "text-navy-100", link: "rounded-sm hover:text-white hover:underline", current: "font-medium text-white" },
} as const;

/** A breadcrumb trail: each crumb but the last links to its page; the last is the current page. */
export function Breadcrumb({ crumbs, tone = "light" }: { crumbs: readonly Crumb[]; tone?: keyof typeof TONES }) {
  const style = TONES[tone];
  return (
    <nav aria-label="Breadcrumb">
      <ol className={`flex flex-wrap items-center gap-1 text-sm ${style.list}`}>
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={`${index}-${crumb.label}`} className={index === 0 ? undefined : "flex items-center gap-1"}>
              {index === 0 ? null : <ChevronRight aria-hidden="true" className="size-4" />}
              {last || !crumb.to ? (
                <span aria-current={last ? "page" : undefined} className={last ? style.current : undefined}>
                  {crumb.label}
                </span>
              ) : (
                <Link to={crumb.to} className={style.link}>
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
