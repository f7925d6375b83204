import * as infoIcon from "lucide-react/icons/info";
import * as mailIcon from "lucide-react/icons/mail";
import * as mapPinIcon from "lucide-react/icons/map-pin";
import * as phoneIcon from "lucide-react/icons/phone";
import type { LegalBlock, LegalDocument } from "~/content/legal/types";
import { formatLegalDate } from "~/content/legal/last-updated";
import { emailHref, pageMeta, phoneHref, site } from "~/content/site";
import { PageHero } from "~/components/about/page-hero";
import { inlineIcons } from "~/components/ui/inline-icon";

const [Info, Mail, MapPin, Phone] = inlineIcons(infoIcon, mailIcon, mapPinIcon, phoneIcon);

/** A legal page's meta tags: its title and description. */
export function legalPageMeta(doc: LegalDocument) {
  return pageMeta(doc.title, doc.description);
}

/** A legal page's loader: 'Last Updated' is today's date, computed on the server at render time. */
export function legalPageLoader() {
  return { lastUpdated: formatLegalDate() };
}

/** A legal page: title, 'Last Updated' (today, computed by the route's loader), contents and sections. */
export function LegalDocumentView({ doc, lastUpdated }: { doc: LegalDocument; lastUpdated: string }) {
  return (
    <>
      <PageHero title={doc.title} lead={doc.summary}>
        <p className="text-sm font-semibold text-gold-400" data-testid="last-updated">
          Last Updated: {lastUpdated}
        </p>
      </PageHero>

      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[16rem_1fr]">
        <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:max-h-[calc(100vh-7rem)] lg:self-start lg:overflow-y-auto">
          <h2 className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">On this page</h2>
          <ol className="mt-3 space-y-1 text-sm">
            {doc.sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="block rounded-sm py-1 text-link hover:underline">
                  {section.heading}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="min-w-0 space-y-10">
          {doc.sections.map((section) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="scroll-mt-24">
              <h2 id={`${section.id}-heading`} className="text-xl font-bold tracking-tight text-primary sm:text-2xl">
                {section.heading}
              </h2>
              <div className="mt-4 space-y-4 leading-relaxed text-slate-700">
                {section.blocks.map((block, index) => (
                  <Block key={index} block={block} />
                ))}
              </div>
            </section>
          ))}
        </div>
      </div>
    </>
  );
}

function Block({ block }: { block: LegalBlock }) {
  switch (block.kind) {
    case "p":
      return <p>{block.text}</p>;
    case "ul":
      return (
        <ul className="list-disc space-y-2 pl-6 marker:text-primary">
          {block.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      );
    case "dl":
      return (
        <dl className="divide-y divide-border rounded-lg border border-border">
          {block.items.map((item) => (
            <div key={item.term} className="grid gap-1 p-4 sm:grid-cols-[11rem_1fr] sm:gap-4">
              <dt className="font-semibold text-primary">{item.term}</dt>
              <dd>{item.definition}</dd>
            </div>
          ))}
        </dl>
      );
    case "table":
      return (
        <div className="overflow-x-auto rounded-lg border border-border" role="region" aria-label={block.caption} tabIndex={0}>
          <table className="w-full min-w-[32rem] border-collapse text-left text-sm">
            <caption className="sr-only">{block.caption}</caption>
            <thead className="bg-navy-900 text-white">
              <tr>
                {block.head.map((cell) => (
                  <th key={cell} scope="col" className="p-3 font-semibold">
                    {cell}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {block.rows.map((row) => (
                <tr key={row[0]} className="even:bg-muted">
                  {row.map((cell, index) =>
                    index === 0 ? (
                      <th key={index} scope="row" className="p-3 font-normal">
                        {cell}
                      </th>
                    ) : (
                      <td key={index} className="p-3 font-semibold whitespace-nowrap text-primary">
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "notice":
      return (
        <div className="flex gap-3 rounded-lg border-l-4 border-gold-500 bg-gold-200/30 p-4 text-slate-800">
          <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
          <div>
            {block.title ? <p className="font-semibold">{block.title}</p> : null}
            <p>{block.text}</p>
          </div>
        </div>
      );
    case "contact":
      return (
        <address className="space-y-2 not-italic">
          <p className="font-semibold text-primary">{site.name}</p>
          <p className="flex items-start gap-2">
            <MapPin aria-hidden="true" className="mt-1 size-4 shrink-0 text-primary" />
            <span>
              {site.address.street}, {site.address.city}, {site.address.state} {site.address.zip}
            </span>
          </p>
          <p className="flex items-center gap-2">
            <Phone aria-hidden="true" className="size-4 shrink-0 text-primary" />
            <a href={phoneHref} className="text-link hover:underline">
              {site.phone.display}
            </a>
          </p>
          <p className="flex items-center gap-2">
            <Mail aria-hidden="true" className="size-4 shrink-0 text-primary" />
            <a href={emailHref} className="break-all text-link hover:underline">
              {site.email}
            </a>
          </p>
        </address>
      );
  }
}
