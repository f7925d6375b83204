import * as quoteIcon from "lucide-react/icons/quote";
import * as starIcon from "lucide-react/icons/star";
import { CardGrid } from "~/components/card-grid";
import { LinkButton } from "~/components/link-button";
import { testimonials, type Testimonial } from "~/content/testimonials";
import { cn } from "~/utils/cn";
import { HomeSection } from "./section-heading";
import { inlineIcon } from "~/components/ui/inline-icon";

const Quote = inlineIcon(quoteIcon);
const Star = inlineIcon(starIcon);

function Stars({ rating }: { rating: number }) {
  return (
    <div role="img" aria-label={`Rated ${rating} out of 5`} className="flex gap-0.5">
      {Array.from({ length: 5 }, (_, i) => (
        <Star
          key={i}
          aria-hidden="true"
          className={cn("size-5", i < rating ? "fill-gold-400 text-gold-700" : "fill-none text-slate-500")}
        />
      ))}
    </div>
  );
}

function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure
      data-testid="testimonial-card"
      className="flex h-full flex-col rounded-xl border border-border bg-white p-6 shadow-sm"
    >
      <div className="flex items-center justify-between">
        <Stars rating={testimonial.rating} />
        <Quote aria-hidden="true" className="size-8 text-navy-200" />
      </div>
      <blockquote className="mt-4 flex-1 text-slate-700">
        <p>“{testimonial.content}”</p>
      </blockquote>
      <figcaption className="mt-6 border-t border-border pt-4">
        <span className="block font-semibold text-primary">{testimonial.name}</span>
        <span className="block text-sm text-muted-foreground">
          {testimonial.role}
          {testimonial.location ? `, ${testimonial.location}` : ""}
        </span>
      </figcaption>
    </figure>
  );
}

/** Three testimonial cards (the first three of the static list) and View All Testimonials (docs/requirements.md §2). */
export function TestimonialsPreview() {
  return (
    <HomeSection
      id="testimonials-title"
      eyebrow="Client Stories"
      title="What Our Clients Say"
      intro="Over 150,000 clients have trusted us with their financing, and they rate us 4.9 out of 5."
    >
      <CardGrid items={testimonials.slice(0, 3)} itemKey={(testimonial) => testimonial.name} className="mt-12 grid gap-6 md:grid-cols-3">
        {(testimonial) => <TestimonialCard testimonial={testimonial} />}
      </CardGrid>
      <div className="mt-10 text-center">
        <LinkButton to="/testimonials" variant="outline" size="lg">
          View All Testimonials
        </LinkButton>
      </div>
    </HomeSection>
  );
}
