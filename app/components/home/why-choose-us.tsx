import { Lock, ShieldCheck, SlidersHorizontal, Zap, type LucideIcon } from "lucide-react";
import { Reveal } from "~/components/reveal";
import { benefits, type BenefitIconName } from "~/content/benefits";
import { SectionHeading } from "./section-heading";

const icons: Record<BenefitIconName, LucideIcon> = { zap: Zap, lock: Lock, sliders: SlidersHorizontal, shield: ShieldCheck };

/** Why choose us: the four benefits (spec 000 §2). */
export function WhyChooseUs() {
  return (
    <section aria-labelledby="why-title" className="bg-navy-50 py-16 sm:py-24">
      <Reveal className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading
          id="why-title"
          eyebrow="Why Choose Us"
          title="Private Lending, Done Right"
          intro="Fifteen years of lending have taught us what borrowers value most: speed, discretion, flexibility and honesty."
        />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {benefits.map((benefit) => {
            const Icon = icons[benefit.icon];
            return (
              <li key={benefit.title} className="rounded-xl border border-border bg-white p-6 shadow-sm">
                <span className="flex size-12 items-center justify-center rounded-lg bg-primary text-gold-400">
                  <Icon aria-hidden="true" className="size-6" />
                </span>
                <h3 className="mt-5 text-lg font-bold text-primary">{benefit.title}</h3>
                <p className="mt-2 text-muted-foreground">{benefit.description}</p>
              </li>
            );
          })}
        </ul>
      </Reveal>
    </section>
  );
}
