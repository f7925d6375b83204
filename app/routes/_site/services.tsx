import type { Route } from "./+types/services";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "Loan Services",
    "Compare our seven loan types: personal, business, private, hard money, debt consolidation, auto and home improvement loans.",
  ),
];

export default function ServicesPage() {
  return (
    <PlaceholderPage
      title="Loan Services"
      intro="Seven loan types for individuals, investors and businesses."
      release="the public-website release"
    />
  );
}
