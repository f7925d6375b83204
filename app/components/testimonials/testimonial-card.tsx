import * as mapPinIcon from "lucide-react/icons/map-pin";
import * as quoteIcon from "lucide-react/icons/quote";
import { StarRating } from "./star-rating";
import { inlineIcon } from "~/components/ui/inline-icon";

const MapPin = inlineIcon(mapPinIcon);
const Quote = inlineIcon(quoteIcon);

export type TestimonialCardData = {
  name: string;
  role: string;
  content: string;
  rating: number;
  location?: string | null;
};

/** One testimonial. All text is rendered as text (never as HTML), including visitors' own words. */
export function TestimonialCard({ testimonial }: { testimonial: TestimonialCardData }) {
  return (
    <figure className="flex h-full flex-col rounded-xl border border-border bg-card p-6 shadow-sm">
      <div className="flex items-start justify-between gap-4">
        <StarRating rating={testimonial.rating} />
        <Quote aria-hidden="true" className="size-8 shrink-0 text-navy-200" />
      </div>
      <blockquote className="mt-4 flex-1 text-slate-700">
        <p className="break-words whitespace-pre-line">{testimonial.content}</p>
      </blockquote>
      <figcaption className="mt-6 border-t border-border pt-4">
        <p className="font-semibold break-words text-primary">{testimonial.name}</p>
        <p className="text-sm break-words text-muted-foreground">{testimonial.role}</p>
        {testimonial.location ? (
          <p className="mt-1 flex items-center gap-1 text-sm break-words text-muted-foreground">
            <MapPin aria-hidden="true" className="size-3.5 shrink-0" />
            {testimonial.location}
          </p>
        ) : null}
      </figcaption>
    </figure>
  );
}
