import * as arrowRightIcon from "lucide-react/icons/arrow-right";
import { useApplyHref } from "~/components/auth/apply-href";
import { LinkButton } from "~/components/link-button";
import type { PageCtaCopy } from "~/content/page-cta";
import { inlineIcon } from "~/components/ui/inline-icon";

const ArrowRight = inlineIcon(arrowRightIcon);

/** The closing call to action of a content page: a heading, a line, Apply Now and a link to /contact. */
export function PageCta({ title, text, applyTo, contactLabel = "Contact Us" }: PageCtaCopy) {
  const applyHref = useApplyHref(applyTo);
  return (
    <section aria-labelledby="page-cta-heading" className="on-dark bg-navy-900 text-white">
      <div className="mx-auto flex w-full max-w-4xl flex-col items-center px-4 py-14 text-center sm:px-6 sm:py-16">
        <h2 id="page-cta-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          {title}
        </h2>
        <p className="mt-3 max-w-2xl text-slate-200">{text}</p>
        <div className="mt-8 flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">
          <LinkButton to={applyHref} variant="accent" size="lg" iconAfter={ArrowRight}>
            Apply Now
          </LinkButton>
          <LinkButton to="/contact" size="lg" className="border border-white bg-transparent text-white hover:bg-navy-800">
            {contactLabel}
          </LinkButton>
        </div>
      </div>
    </section>
  );
}
