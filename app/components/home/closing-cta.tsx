import * as arrowRightIcon from "lucide-react/icons/arrow-right";
import * as phoneIcon from "lucide-react/icons/phone";
import { ButtonRow, LinkButton } from "~/components/link-button";
import { useApplyHref } from "~/components/auth/apply-href";
import { Reveal } from "~/components/reveal";
import { inlineIcon } from "~/components/ui/inline-icon";

const ArrowRight = inlineIcon(arrowRightIcon);
const Phone = inlineIcon(phoneIcon);

/** The closing call to action: Apply Now (/auth, or /apply when signed in) and Contact Us (/contact) (docs/requirements.md §2). */
export function ClosingCta() {
  const applyHref = useApplyHref();
  return (
    <section aria-labelledby="cta-title" className="on-dark bg-gradient-to-br from-navy-900 to-navy-950 py-16 text-white sm:py-20">
      <Reveal className="mx-auto max-w-3xl px-4 text-center sm:px-6">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
          Ready to Take the Next Step?
        </h2>
        <p className="mt-4 text-lg text-navy-100">
          Apply online in minutes and get a decision within 24 hours, or talk to a lending specialist first. Either way,
          there is no obligation.
        </p>
        <ButtonRow centered className="mt-8">
          <LinkButton to={applyHref} variant="accent" size="lg" iconAfter={ArrowRight}>
            Apply Now
          </LinkButton>
          <LinkButton to="/contact" tone="on-dark" size="lg" icon={Phone}>
            Contact Us
          </LinkButton>
        </ButtonRow>
      </Reveal>
    </section>
  );
}
