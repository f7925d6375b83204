import * as arrowRightIcon from "lucide-react/icons/arrow-right";
import { Link } from "react-router";
import type { LoanProduct } from "~/content/loans";
import { cn } from "~/utils/cn";
import { LoanImage } from "./loan-image";
import { inlineIcon } from "~/components/ui/inline-icon";

const ArrowRight = inlineIcon(arrowRightIcon);

/**
 * A loan as a card: picture, title, tagline, amount and term, and 'Learn More' to its page.
 * The link's accessible name starts with its visible text ("Learn More about Auto Loans").
 */
export function LoanCard({
  loan,
  headingLevel = "h3",
  className,
}: {
  loan: LoanProduct;
  headingLevel?: "h2" | "h3";
  className?: string;
}) {
  const Heading = headingLevel;
  return (
    <article
      className={cn("loan-card", className)}
    >
      <LoanImage loan={loan} decorative className="aspect-[3/2] object-cover" />
      <div className="flex flex-1 flex-col gap-3 p-6">
        <Heading className="text-xl font-bold text-primary">{loan.title}</Heading>
        <p className="text-muted-foreground">{loan.tagline}</p>
        <dl className="mt-1 grid gap-1 text-sm">
          <div className="flex flex-wrap gap-x-2">
            <dt className="font-semibold text-foreground">Amount:</dt>
            <dd className="text-slate-700">{loan.amount.display}</dd>
          </div>
          <div className="flex flex-wrap gap-x-2">
            <dt className="font-semibold text-foreground">Term:</dt>
            <dd className="text-slate-700">{loan.term.display}</dd>
          </div>
        </dl>
        <Link
          to={loan.href}
          className="group loan-card-link"
        >
          Learn More
          <span className="sr-only"> about {loan.title}</span>
          <ArrowRight aria-hidden="true" className="size-4 transition-transform group-hover:translate-x-0.5" />
        </Link>
      </div>
    </article>
  );
}
