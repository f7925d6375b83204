import { Breadcrumb } from "~/components/ui/breadcrumb";
import * as arrowRightIcon from "lucide-react/icons/arrow-right";
import * as checkCircle2Icon from "lucide-react/icons/circle-check";
import * as messageSquareIcon from "lucide-react/icons/message-square";
import { data, Link } from "react-router";
import type { Route } from "./+types/loan-detail";
import { useApplyHref } from "~/components/auth/apply-href";
import { LoanFacts } from "~/components/loans/loan-facts";
import { LoanIcon } from "~/components/loans/loan-icon";
import { LoanImage } from "~/components/loans/loan-image";
import { UnderwritingNote } from "~/components/loans/underwriting-note";
import { ButtonRow, LinkButton } from "~/components/link-button";
import { CtaPanel } from "~/components/loans/cta-panel";
import { loanByPathname, loanBySlug, loans, type LoanProduct } from "~/content/loans";
import { pageMeta } from "~/content/site";
import { inlineIcons } from "~/components/ui/inline-icon";
import { HeadedSection } from "~/components/ui/headed-section";

const [ArrowRight, CheckCircle2, MessageSquare] = inlineIcons(arrowRightIcon, checkCircle2Icon, messageSquareIcon);

/**
 * One module, seven routes (ids loan-<slug>, see app/routes.ts; the spec's routes have no parameters):
 * the path names the loan. Any other path reaching this module is a 404.
 */
export function loader({ request }: Route.LoaderArgs) {
  const loan = loanByPathname(new URL(request.url).pathname);
  if (!loan) throw data(null, { status: 404, statusText: "Not Found" });
  return { slug: loan.slug };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const loan = loanBySlug(loaderData?.slug);
  if (!loan) return pageMeta("Page Not Found", "The page you are looking for does not exist or has moved.");
  return pageMeta(
    loan.title,
    `${loan.title} from Private Loans: ${loan.amount.display}, ${loan.rate.display}, terms of ${loan.term.display}. ${loan.tagline}`,
  );
};

function ApplyAndContact({ loan, onDark = false }: { loan: LoanProduct; onDark?: boolean }) {
  const applyHref = useApplyHref(loan.applyHref);
  return (
    <ButtonRow>
      <LinkButton to={applyHref} variant="accent" size="lg" iconAfter={ArrowRight}>
        Apply Now
      </LinkButton>
      <LinkButton to="/contact" variant="outline" tone={onDark ? "on-dark" : undefined} size="lg" icon={MessageSquare}>
        Contact Us
      </LinkButton>
    </ButtonRow>
  );
}

export default function LoanDetailPage({ loaderData }: Route.ComponentProps) {
  // The loader only returns slugs of existing loans.
  const loan = loanBySlug(loaderData.slug)!;
  const others = loans.filter((other) => other.slug !== loan.slug);
  const applyHref = useApplyHref(loan.applyHref);

  return (
    <>
      <section aria-labelledby="loan-title" className="on-dark bg-gradient-to-br from-navy-950 via-navy-900 to-navy-800 text-white">
        <div className="mx-auto max-w-7xl px-4 pt-6 pb-14 sm:px-6 sm:pb-20">
          <Breadcrumb tone="dark" crumbs={[{ label: "Home", to: "/" }, { label: "Loan Services", to: "/services" }, { label: loan.title }]} />
          <div className="mt-10 grid items-center gap-10 lg:grid-cols-2">
            <div>
              <span className="flex size-12 items-center justify-center rounded-lg bg-gold-400 text-navy-950">
                <LoanIcon name={loan.icon} className="size-7" />
              </span>
              <h1 id="loan-title" className="mt-5 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
                {loan.title}
              </h1>
              <p className="mt-4 text-xl font-semibold text-gold-200">{loan.tagline}</p>
              <p className="mt-3 text-lg text-navy-100">
                {loan.amount.display} · {loan.rate.display}
              </p>
              <div className="mt-8">
                <ApplyAndContact loan={loan} onDark />
              </div>
            </div>
            <div className="overflow-hidden rounded-2xl bg-white/5 ring-1 ring-white/10">
              <LoanImage loan={loan} eager />
            </div>
          </div>
        </div>
      </section>

      <div className="mx-auto grid w-full max-w-7xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_22rem]">
        <div className="flex flex-col gap-12">
          <HeadedSection titleId="overview-title" title="Overview" headingClassName="text-2xl font-bold tracking-tight text-primary sm:text-3xl">
            <p className="mt-4 text-lg text-slate-700">{loan.description}</p>
          </HeadedSection>

          <HeadedSection titleId="benefits-title" title="Key Benefits" headingClassName="text-2xl font-bold tracking-tight text-primary sm:text-3xl">
            <ul className="mt-6 grid gap-4 sm:grid-cols-2">
              {loan.benefits.map((benefit) => (
                <li key={benefit} className="flex items-start gap-3 rounded-xl border border-border bg-navy-50 p-4">
                  <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
                  <span className="font-medium text-slate-800">{benefit}</span>
                </li>
              ))}
            </ul>
          </HeadedSection>
        </div>

        <aside aria-labelledby="details-title" className="self-start rounded-2xl border border-border bg-white p-6 shadow-md lg:sticky lg:top-6">
          <h2 id="details-title" className="text-xl font-bold text-primary">
            Loan Details
          </h2>
          <LoanFacts loan={loan} className="mt-5 gap-4" />
          <p className="mt-5 text-sm text-muted-foreground">
            A decision within 24 hours of a complete application; funds typically 1 to 3 business days after approval.
          </p>
          <LinkButton to={applyHref} className="mt-6 w-full">
            Apply Now
          </LinkButton>
        </aside>
      </div>

      <div className="mx-auto w-full max-w-7xl px-4 sm:px-6">
        <UnderwritingNote />
      </div>

      <CtaPanel
        id="apply-title"
        title={`Ready to Apply for ${loan.title}?`}
        text="Apply online in minutes, or speak with a lending specialist about your plans first. We will help you find the amount and term that fit."
      >
        <div className="mt-8">
          <ApplyAndContact loan={loan} onDark />
        </div>
      </CtaPanel>

      <HeadedSection titleId="other-loans-title" title="Explore Other Loans" headingClassName="text-2xl font-bold tracking-tight text-primary" className="mx-auto w-full max-w-7xl px-4 pb-16 sm:px-6">
        <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {others.map((other) => (
            <li key={other.slug}>
              <Link
                to={other.href}
                className="flex items-center gap-3 rounded-xl border border-border bg-white p-4 font-semibold text-primary transition-colors hover:border-navy-200 hover:bg-navy-50"
              >
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-navy-50 text-navy-800">
                  <LoanIcon name={other.icon} className="size-5" />
                </span>
                <span className="min-w-0 flex-1">
                  {other.title}
                  <span className="block text-sm font-normal text-muted-foreground">{other.amount.display}</span>
                </span>
                <ArrowRight aria-hidden="true" className="size-4 shrink-0" />
              </Link>
            </li>
          ))}
        </ul>
      </HeadedSection>
    </>
  );
}
