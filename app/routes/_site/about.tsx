import * as targetIcon from "lucide-react/icons/target";
import type { Route } from "./+types/about";
import { CompanyTimeline } from "~/components/about/company-timeline";
import { CoreValues } from "~/components/about/core-values";
import { LeaderCard } from "~/components/about/leader-card";
import { PageCta } from "~/components/about/page-cta";
import { PageHero, PageSection } from "~/components/about/page-hero";
import { StatsGrid } from "~/components/about/stats-grid";
import { CardGrid } from "~/components/card-grid";
import { aboutCta, aboutIntro, coreValues, impactStats, mission, story } from "~/content/company";
import { leaders } from "~/content/leaders";
import { pageMeta } from "~/content/site";
import { timeline } from "~/content/timeline";
import { inlineIcon } from "~/components/ui/inline-icon";

const Target = inlineIcon(targetIcon);

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "About Us",
    "Learn about Private Loans: our story, mission, core values and the leadership team behind 15 years of trusted private lending.",
  ),
];

export default function AboutPage() {
  return (
    <>
      <PageHero eyebrow="About Us" title={aboutIntro.title} lead={aboutIntro.lead} />

      <section aria-labelledby="impact-heading" className="bg-muted">
        <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6">
          <h2 id="impact-heading" className="sr-only">
            Our impact
          </h2>
          <StatsGrid stats={impactStats} />
        </div>
      </section>

      <section aria-labelledby="story-heading">
        <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-14 sm:px-6 sm:py-16 lg:grid-cols-5">
          <div className="lg:col-span-3">
            <h2 id="story-heading" className="text-2xl font-bold tracking-tight text-primary sm:text-3xl">
              Our Story
            </h2>
            <div className="mt-6 space-y-4 text-slate-700">
              {story.map((paragraph) => (
                <p key={paragraph.slice(0, 32)}>{paragraph}</p>
              ))}
            </div>
          </div>
          <aside aria-labelledby="mission-heading" className="self-start rounded-xl bg-navy-900 p-8 text-white lg:col-span-2 on-dark">
            <Target aria-hidden="true" className="size-8 text-gold-400" />
            <h2 id="mission-heading" className="mt-4 text-2xl font-bold">
              {mission.title}
            </h2>
            <p className="mt-3 text-lg text-slate-200">{mission.text}</p>
          </aside>
        </div>
      </section>

      <PageSection id="values" title="Our Core Values" intro="The principles behind every loan we make." tone="muted">
        <CoreValues values={coreValues} />
      </PageSection>

      <PageSection id="journey" title="Our Journey" intro="From a single office in Wilmington to clients across the country.">
        <CompanyTimeline items={timeline} />
      </PageSection>

      <PageSection
        id="leadership"
        title="Leadership Team"
        intro="Experienced people who answer for every decision we make."
        tone="muted"
      >
        <CardGrid items={leaders} itemKey={(leader) => leader.name} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {(leader) => <LeaderCard leader={leader} />}
        </CardGrid>
      </PageSection>

      <PageCta {...aboutCta} />
    </>
  );
}
