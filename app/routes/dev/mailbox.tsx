import { Link } from "react-router";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { TableHead } from "~/components/ui/table";
import { getConfig } from "~/server/platform/config.server";
import { getDb } from "~/server/platform/db/client.server";
import { isLocalRequest } from "~/server/platform/http/loopback.server";
import { getMailboxMessage, listMailbox } from "~/server/platform/mail/mailbox.server";
import type { Route } from "./+types/mailbox";

/**
 * /dev/mailbox: the outbox as a mailbox, for development without a mail server (read a sign-up code,
 * a reset link). It holds every reset link, so it answers only a browser on this machine (a loopback
 * client) and only on a local run (secrets generated here, production not declared): never in
 * production nor on a deployment with its own secrets. Anyone else gets the ordinary 404.
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  const config = getConfig();
  if (!config.localRun || !isLocalRequest(request, context.clientIp, config.trustProxy)) {
    throw new Response("Not Found", { status: 404, statusText: "Not Found" });
  }
  const id = new URL(request.url).searchParams.get("id");
  const db = getDb();
  const [messages, selected] = await Promise.all([listMailbox(db, 50), id ? getMailboxMessage(db, id) : null]);
  return { messages, selected, requestedId: id };
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export function meta() {
  return [{ title: "Development mailbox | Private Loans" }, { name: "robots", content: "noindex" }];
}

const statusVariant: Record<string, BadgeVariant> = {
  pending: "warning",
  sending: "info",
  sent: "success",
  failed: "destructive",
};

const MAILBOX_COLUMNS = ["To", "Subject", "Template", "Status", "Created"] as const;

function formatTime(value: Date | string): string {
  return new Date(value).toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

export default function Mailbox({ loaderData }: Route.ComponentProps) {
  const { messages, selected, requestedId } = loaderData;
  return (
    <main className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-bold text-primary">Development mailbox</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        Every e-mail the portal queued, newest first (the last 50). Only available outside production, to this machine; with SMTP_URL
        set, these messages were also delivered by the mail server.
      </p>

      <div className="mt-6 overflow-x-auto rounded-lg border border-border">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Queued e-mail messages, newest first</caption>
          <TableHead columns={MAILBOX_COLUMNS} className="bg-muted" cellClassName="px-3 py-2 font-semibold" />
          <tbody>
            {messages.length === 0 ? (
              <tr>
                <td colSpan={MAILBOX_COLUMNS.length} className="px-3 py-6 text-center text-muted-foreground">
                  No messages yet.
                </td>
              </tr>
            ) : (
              messages.map((m) => {
                const current = selected?.id === m.id;
                return (
                  <tr key={m.id} className={current ? "bg-navy-50" : "border-t border-border"}>
                    <td className="px-3 py-2 break-all">{m.toAddress}</td>
                    <td className="px-3 py-2">
                      <Link
                        to={`?id=${encodeURIComponent(m.id)}`}
                        aria-current={current ? "true" : undefined}
                        className="text-link underline underline-offset-2"
                      >
                        {m.subject}
                      </Link>
                    </td>
                    <td className="px-3 py-2 font-mono text-xs">{m.template}</td>
                    <td className="px-3 py-2">
                      <Badge variant={statusVariant[m.status] ?? "outline"}>{m.status}</Badge>
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap">
                      <time dateTime={new Date(m.createdAt).toISOString()}>{formatTime(m.createdAt)}</time>
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>

      {requestedId && !selected ? (
        <p role="alert" className="mt-6 text-destructive">
          No message with that id.
        </p>
      ) : null}

      {selected ? (
        <section aria-labelledby="message-heading" className="mt-8 rounded-lg border border-border p-4">
          <h2 id="message-heading" className="text-xl font-semibold text-primary">
            {selected.subject}
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">To</dt>
            <dd className="break-all">{selected.toAddress}</dd>
            <dt className="font-semibold">Template</dt>
            <dd className="font-mono text-xs">{selected.template}</dd>
            <dt className="font-semibold">Status</dt>
            <dd>
              {selected.status} after {selected.attempts} attempt{selected.attempts === 1 ? "" : "s"}
              {selected.sentAt ? `, sent ${formatTime(selected.sentAt)}` : ""}
            </dd>
            {selected.lastError ? (
              <>
                <dt className="font-semibold">Last error</dt>
                <dd>{selected.lastError}</dd>
              </>
            ) : null}
          </dl>
          <h3 className="mt-4 font-semibold">Text version</h3>
          <pre className="mt-2 overflow-x-auto rounded bg-muted p-3 text-sm whitespace-pre-wrap">{selected.textBody}</pre>
          {selected.htmlBody ? (
            <>
              <h3 className="mt-4 font-semibold">HTML version</h3>
              {/* sandbox="" : no scripts, no forms, no navigation; the e-mail HTML is only displayed. */}
              <iframe
                title={`HTML version of: ${selected.subject}`}
                sandbox=""
                srcDoc={selected.htmlBody}
                className="mt-2 h-[32rem] w-full rounded border border-border bg-white"
              />
            </>
          ) : null}
        </section>
      ) : null}
    </main>
  );
}
