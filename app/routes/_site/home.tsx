import { Link } from "react-router";
import type { Route } from "./+types/home";
import { PlaceholderPage } from "~/components/placeholder-page";
import { Button } from "~/components/ui/button";
import { site } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  { title: `${site.name} | ${site.tagline}` },
  {
    name: "description",
    content:
      "Private loans for individuals, investors and businesses across the United States: personal, business, private, hard money, debt consolidation, auto and home improvement loans, with a decision within 24 hours.",
  },
];

export default function Home() {
  return (
    <PlaceholderPage
      title={site.tagline}
      intro="Discreet, fast and secure private lending for individuals, investors and businesses across the United States."
    >
      <div className="flex flex-wrap gap-3">
        <Button asChild variant="accent" size="lg">
          <Link to="/auth">Apply Now</Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to="/calculator">Estimate Your Loan</Link>
        </Button>
      </div>
    </PlaceholderPage>
  );
}
