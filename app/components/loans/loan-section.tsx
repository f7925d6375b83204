import { HeadedSection, type HeadedSectionProps } from "~/components/ui/headed-section";

/** A section of the borrower's loan page: its h2 in the style the page's sections share. */
export function LoanSection(props: Omit<HeadedSectionProps, "as" | "level" | "headingClassName">) {
  return <HeadedSection headingClassName="mb-3 text-2xl font-bold tracking-tight text-primary" {...props} />;
}
