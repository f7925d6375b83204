import * as messageSquareQuoteIcon from "lucide-react/icons/message-square-quote";
import type { Route } from "./+types/testimonials";
import { PageHero } from "~/components/about/page-hero";
import { StatsGrid } from "~/components/about/stats-grid";
import { TestimonialCard, type TestimonialCardData } from "~/components/testimonials/testimonial-card";
import { TestimonialForm } from "~/components/testimonials/testimonial-form";
import { testimonialStats } from "~/content/company";
import { pageMeta } from "~/content/site";
import { testimonials } from "~/content/testimonials";
import { getOptionalUser } from "~/server/accounts/index.server";
import { respond } from "~/server/platform/http/action-answer.server";
import { listApprovedTestimonials, submitTestimonialRequest } from "~/server/public-site/index.server";
import { inlineIcon } from "~/components/ui/inline-icon";
import { defineAction } from "~/server/platform/http/define-route.server";
import { maybeSignedIn } from "~/server/accounts/index.server";
import { IconHeading } from "~/components/ui/icon-heading";

const MessageSquareQuote = inlineIcon(messageSquareQuoteIcon);

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "Testimonials",
    "Read what our clients say about working with Private Loans, and share your own experience.",
  ),
];

/** How many approved testimonials from clients are shown under the nine static cards. */
const APPROVED_LIMIT = 24;

export async function loader({ request }: Route.LoaderArgs) {
  const [user, approved] = await Promise.all([getOptionalUser(request), listApprovedTestimonials({ limit: APPROVED_LIMIT })]);
  return { signedIn: user !== null, approved };
}

export const action = defineAction({
  guard: maybeSignedIn,
  handle: async ({ request }: Route.ActionArgs, user) => {
    return respond(await submitTestimonialRequest(request, user));
  },
});

export default function TestimonialsPage({ loaderData, actionData }: Route.ComponentProps) {
  const cards: (TestimonialCardData & { key: string })[] = [
    ...testimonials.map((t, index) => ({ ...t, key: `static-${index}` })),
    ...loaderData.approved.map((t) => ({
      key: t.id,
      name: t.displayName,
      role: t.role,
      location: t.location,
      content: t.content,
      rating: t.rating,
    })),
  ];

  return (
    <>
      <PageHero
        eyebrow="Testimonials"
        title="What Our Clients Say"
        lead="Real stories from the individuals, investors and business owners we have helped across the United States."
      />

      <section aria-labelledby="stats-heading" className="on-dark bg-navy-950">
        <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6">
          <h2 id="stats-heading" className="sr-only">
            Our clients by the numbers
          </h2>
          <StatsGrid stats={testimonialStats} tone="dark" />
        </div>
      </section>

      <section aria-labelledby="reviews-heading">
        <div className="mx-auto w-full max-w-6xl px-4 py-14 sm:px-6 sm:py-16">
          <h2 id="reviews-heading" className="text-2xl font-bold tracking-tight text-primary sm:text-3xl">
            Client Reviews
          </h2>
          <ul className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="testimonial-list">
            {cards.map(({ key, ...card }) => (
              <li key={key}>
                <TestimonialCard testimonial={card} />
              </li>
            ))}
          </ul>
          <p className="mt-6 text-xs text-muted-foreground">
            Testimonials reflect the experiences of individual clients; individual results vary.
          </p>
        </div>
      </section>

      <section aria-labelledby="share-heading" className="bg-muted">
        <div className="mx-auto w-full max-w-3xl px-4 py-14 sm:px-6 sm:py-16">
          <IconHeading icon={MessageSquareQuote} iconClassName="size-8 text-primary" id="share-heading" className="text-2xl font-bold tracking-tight text-primary sm:text-3xl">
            Share Your Experience
          </IconHeading>
          <p className="mt-3 text-muted-foreground">
            Worked with us? Tell others about it. Your testimonial will be reviewed before it is published.
          </p>
          <div className="mt-8 rounded-xl border border-border bg-card p-5 shadow-sm sm:p-8">
            <TestimonialForm signedIn={loaderData.signedIn} actionData={actionData} />
          </div>
        </div>
      </section>
    </>
  );
}
