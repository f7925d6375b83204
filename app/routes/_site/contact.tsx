import type { Route } from "./+types/contact";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Contact Us", "Contact Private Loans by phone, e-mail or our contact form. We reply within 24 hours."),
];

export default function ContactPage() {
  return (
    <PlaceholderPage
      title="Contact Us"
      intro="Call us, write to us, or send a message: we reply within 24 hours."
      release="the public-website release"
    />
  );
}
