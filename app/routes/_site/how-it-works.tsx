import * as arrowRightIcon from "lucide-react/icons/arrow-right";
import * as badgeCheckIcon from "lucide-react/icons/badge-check";
import * as banknoteIcon from "lucide-react/icons/banknote";
import * as clockIcon from "lucide-react/icons/clock";
import * as fileTextIcon from "lucide-react/icons/file-text";
import * as searchIcon from "lucide-react/icons/search";
import type { Route } from "./+types/how-it-works";
import { PageCta } from "~/components/about/page-cta";
import { PageHero, PageSection } from "~/components/about/page-hero";
import { CardGrid } from "~/components/card-grid";
import { CheckList } from "~/components/check-list";
import { LinkButton } from "~/components/link-button";
import { documentChecklists, documentRequirementsNote, howItWorksCta, processTimeline, steps, type Step } from "~/content/how-it-works";
import { pageMeta } from "~/content/site";
import { inlineIcons, type IconComponent } from "~/components/ui/inline-icon";

const [ArrowRight, BadgeCheck, Banknote, Clock, FileText, Search] = inlineIcons(
  arrowRightIcon, badgeCheckIcon, banknoteIcon, clockIcon, fileTextIcon, searchIcon,
);

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "How It Works",
    "Four simple steps from application to funding: apply online, underwriting, approval within 24 hours and disbursement in 1-3 business days. See which documents you need.",
  ),
];

const stepIcons: Record<Step["icon"], IconComponent> = {
  "file-text": FileText,
  search: Search,
  "badge-check": BadgeCheck,
  banknote: Banknote,
};

function StepCard({ step }: { step: Step }) {
  const Icon = stepIcons[step.icon];
  return (
    <article className="relative flex h-full flex-col rounded-xl border border-border bg-card p-6 shadow-sm">
      <div className="flex items-center gap-3">
        <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-navy-900 text-gold-400">
          <Icon aria-hidden="true" className="size-6" />
        </span>
        <div>
          <p className="text-xs font-bold tracking-wide text-gold-700 uppercase">Step {step.number}</p>
          <h3 className="text-xl font-semibold text-primary">{step.title}</h3>
        </div>
      </div>
      <p className="mt-4 text-slate-700">{step.summary}</p>
      <CheckList items={step.details} className="mt-4 flex-1 space-y-2 text-sm text-muted-foreground" />
      <p className="mt-5 flex items-center gap-2 border-t border-border pt-4 text-sm font-semibold text-primary">
        <Clock aria-hidden="true" className="size-4" />
        {step.duration}
      </p>
    </article>
  );
}

export default function HowItWorksPage() {
  return (
    <>
      <PageHero
        eyebrow="How It Works"
        title="From application to funding in four steps"
        lead="A clear, secure process with a real person behind every decision: apply online, get a decision within 24 hours and receive your funds in 1-3 business days."
      >
        <LinkButton to="/apply" variant="accent" size="lg" iconAfter={ArrowRight}>
          Start Your Application
        </LinkButton>
      </PageHero>

      <PageSection id="steps" title="The Process" intro="What happens at each step, and how long it usually takes.">
        <CardGrid items={steps} itemKey={(step) => step.number} ordered className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {(step) => <StepCard step={step} />}
        </CardGrid>
      </PageSection>

      <PageSection id="timeline" title="Your Timeline" intro="Typical times for a complete application." tone="muted">
        <ol className="grid gap-4 md:grid-cols-4 md:gap-0">
          {processTimeline.map((item, index) => (
            <li key={item.when} className="relative flex gap-4 md:flex-col md:items-center md:px-3 md:text-center">
              {index < processTimeline.length - 1 ? (
                <span aria-hidden="true" className="absolute top-5 left-1/2 hidden h-0.5 w-full bg-navy-200 md:block" />
              ) : null}
              <span className="relative inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-gold-400 font-bold text-navy-950">
                {index + 1}
              </span>
              <div className="md:mt-3">
                <p className="font-semibold text-primary">{item.when}</p>
                <p className="text-sm text-muted-foreground">{item.what}</p>
              </div>
            </li>
          ))}
        </ol>
      </PageSection>

      <PageSection id="documents" title="Document Checklist" intro="Have these ready and your application will move faster.">
        <div className="grid gap-6 md:grid-cols-2">
          {documentChecklists.map((list, index) => (
            <section key={list.title} aria-labelledby={`docs-${index}`} className="rounded-xl border border-border bg-card p-6 shadow-sm">
              <h3 id={`docs-${index}`} className="text-lg font-semibold text-primary">
                {list.title}
              </h3>
              <p className="mt-1 text-sm text-muted-foreground">{list.description}</p>
              <CheckList items={list.items} className="mt-4 space-y-2" itemClassName="text-slate-700" iconSize="size-5" />
            </section>
          ))}
        </div>
        <p className="mt-6 text-sm text-muted-foreground">{documentRequirementsNote}</p>
      </PageSection>

      <PageCta {...howItWorksCta} />
    </>
  );
}
