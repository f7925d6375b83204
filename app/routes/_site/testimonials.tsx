import type { Route } from "./+types/testimonials";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "Testimonials",
    "Read what our clients say about working with Private Loans, and share your own experience.",
  ),
];

export default function TestimonialsPage() {
  return (
    <PlaceholderPage
      title="Client Testimonials"
      intro="What our clients say about working with us."
      release="the public-website release"
    />
  );
}
