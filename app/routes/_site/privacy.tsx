import type { Route } from "./+types/privacy";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Privacy Policy", "How Private Loans collects, uses and protects your personal information."),
];

export default function PrivacyPage() {
  return <PlaceholderPage title="Privacy Policy" release="the public-website release" />;
}
