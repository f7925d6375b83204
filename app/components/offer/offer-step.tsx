import { HeadedSection, type HeadedSectionProps } from "~/components/ui/headed-section";

/**
 * One step of Review and Sign (the E-SIGN consent, the agreement, the signature): an h2 under the
 * page's h1, in the one style the steps share, with an optional line under it.
 */
export function OfferStep(props: Omit<HeadedSectionProps, "level" | "headingClassName" | "leadClassName">) {
  return <HeadedSection headingClassName="text-2xl font-bold tracking-tight text-primary" leadClassName="mt-1 text-sm text-muted-foreground" {...props} />;
}
