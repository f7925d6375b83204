import { claims } from "~/content/benefits";

/** The claims shown to visitors (docs/requirements.md §1), as a band of figures under the hero. */
export function ClaimsBand() {
  return (
    <section aria-labelledby="claims-title" className="border-b border-border bg-white">
      <h2 id="claims-title" className="sr-only">
        Private Loans in numbers
      </h2>
      <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-x-4 gap-y-8 px-4 py-10 sm:grid-cols-3 sm:px-6 lg:grid-cols-5">
        {claims.map((claim, index) => (
          <div
            key={claim.label}
            className={`flex flex-col-reverse items-center text-center ${index === claims.length - 1 ? "col-span-2 sm:col-span-1" : ""}`}
          >
            <dt className="mt-1 text-sm font-medium text-muted-foreground">{claim.label}</dt>
            <dd className="text-3xl font-extrabold tracking-tight text-primary sm:text-4xl">{claim.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
