import { Link } from "react-router";
import type { Route } from "./+types/faq";
import { PageCta } from "~/components/about/page-cta";
import { PageHero } from "~/components/about/page-hero";
import { FaqAccordion } from "~/components/faq/faq-accordion";
import { useNonce } from "~/components/nonce-provider";
import { faqCategories, faqCta } from "~/content/faq";
import { jsonLdText } from "~/content/seo";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "Frequently Asked Questions",
    "Answers about applying, loan types and terms, rates and fees, funding, repayment and how Private Loans keeps your information secure.",
  ),
];

/** FAQPage structured data from the same content the accordions show (plain-text answers). */
const faqJsonLd = {
  "@context": "https://schema.org",
  "@type": "FAQPage",
  mainEntity: faqCategories.flatMap((category) =>
    category.items.map((item) => ({
      "@type": "Question",
      name: item.question,
      acceptedAnswer: { "@type": "Answer", text: item.answer.join("\n\n") },
    })),
  ),
};

export default function FaqPage() {
  const nonce = useNonce();
  return (
    <>
      <script
        type="application/ld+json"
        nonce={nonce || undefined}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: jsonLdText(faqJsonLd) }}
      />
      <PageHero
        eyebrow="FAQs"
        title="Frequently Asked Questions"
        lead={
          <>
            Everything you need to know about borrowing with us. Can't find your answer?{" "}
            <Link to="/contact" className="font-semibold text-gold-400 underline underline-offset-4 hover:text-gold-300">
              Contact our team
            </Link>
            .
          </>
        }
      />

      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="FAQ categories" className="lg:sticky lg:top-24 lg:self-start">
          <h2 className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">Categories</h2>
          <ul className="mt-3 flex flex-wrap gap-2 lg:flex-col lg:gap-1">
            {faqCategories.map((category) => (
              <li key={category.id}>
                <a
                  href={`#${category.id}`}
                  className="inline-block rounded-md border border-border px-3 py-1.5 text-sm font-medium text-primary hover:bg-navy-50 lg:border-0 lg:px-2"
                >
                  {category.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="space-y-12">
          {faqCategories.map((category) => (
            <section key={category.id} id={category.id} aria-labelledby={`${category.id}-heading`} className="scroll-mt-24">
              <h2 id={`${category.id}-heading`} className="mb-4 text-2xl font-bold tracking-tight text-primary">
                {category.title}
              </h2>
              <FaqAccordion category={category} />
            </section>
          ))}
        </div>
      </div>

      <PageCta {...faqCta} />
    </>
  );
}
