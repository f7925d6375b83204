import type { AccountDataView } from "~/domain/views/account";

/** Download My Data and Close My Account on /account (placeholder: the data helper fills it in). */
export function DataSection({ data }: { data: AccountDataView }) {
  return (
    <section aria-labelledby="account-data">
      <h2 id="account-data" className="text-lg font-semibold text-primary">
        Your Data
      </h2>
      <p className="text-sm text-slate-700">{data.latestExport ? data.latestExport.status : "No export requested."}</p>
    </section>
  );
}
