import { HeadedSection, type HeadedSectionProps } from "~/components/ui/headed-section";

/**
 * A section of the account pages (settings, the privacy notice): its h2 in the one heading style those
 * pages share; its parts stack with a small gap unless the section passes its own layout.
 */
export function AccountSection({ className = "flex flex-col gap-3", ...props }: Omit<HeadedSectionProps, "as" | "level" | "headingClassName">) {
  return <HeadedSection className={className} headingClassName="text-lg font-semibold text-primary" {...props} />;
}
