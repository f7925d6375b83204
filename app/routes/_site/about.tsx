import type { Route } from "./+types/about";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "About Us",
    "Learn about Private Loans: our story, mission, core values and the leadership team behind 15 years of trusted private lending.",
  ),
];

export default function AboutPage() {
  return (
    <PlaceholderPage
      title="About Us"
      intro="Our story, our mission and the people behind 15 years of private lending."
      release="the public-website release"
    />
  );
}
