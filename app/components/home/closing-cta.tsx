import { ArrowRight, Phone } from "lucide-react";
import { Link } from "react-router";
import { Reveal } from "~/components/reveal";
import { Button } from "~/components/ui/button";

/** The closing call to action: Apply Now (/auth) and Contact Us (/contact) (spec 000 §2). */
export function ClosingCta() {
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
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild variant="accent" size="lg">
            <Link to="/auth">
              Apply Now
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild variant="outline" size="lg" className="border-white bg-transparent text-white hover:bg-white/10">
            <Link to="/contact">
              <Phone aria-hidden="true" />
              Contact Us
            </Link>
          </Button>
        </div>
      </Reveal>
    </section>
  );
}
