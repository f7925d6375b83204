import type { Route } from "./+types/faq";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("FAQs", "Answers to common questions about our loans, the application, approval, funding and security."),
];

export default function FaqPage() {
  return (
    <PlaceholderPage
      title="Frequently Asked Questions"
      intro="Answers to common questions about loans, applications and funding."
      release="the public-website release"
    />
  );
}
