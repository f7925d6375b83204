import type { Route } from "./+types/contact";
import { ContactForm } from "~/components/contact/contact-form";
import { CallNowCard, ContactInfoCard } from "~/components/contact/contact-info";
import { CONTACT_SEO } from "~/content/seo";
import { pageMeta } from "~/content/site";
import { submitContactRequest } from "~/server/public-site/contact.server";
import { respond } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";

export const meta: Route.MetaFunction = () => pageMeta(CONTACT_SEO.title, CONTACT_SEO.description);

/** The contact form's POST: same-origin only; answers are data for the form (never an error page). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return respond(await submitContactRequest(request, { ip: context.clientIp }));
}

export default function ContactPage({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="max-w-3xl">
        <h1 className="text-3xl font-bold tracking-tight text-primary sm:text-4xl">Contact Us</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          Questions about a loan, your application or our process? Send us a message and we will get back to you within
          24 hours, or call us during business hours.
        </p>
      </header>
      <div className="mt-10 grid gap-8 lg:grid-cols-3">
        <section aria-labelledby="contact-form-heading" className="rounded-xl border border-border bg-card p-6 shadow-sm lg:col-span-2">
          <h2 id="contact-form-heading" className="text-xl font-semibold text-primary">
            Send Us a Message
          </h2>
          <div className="mt-5">
            <ContactForm actionData={actionData} />
          </div>
        </section>
        <div className="flex flex-col gap-6">
          <ContactInfoCard />
          <CallNowCard />
        </div>
      </div>
    </div>
  );
}
