import { dollarsOf } from "~/domain/money";
import { eq } from "drizzle-orm";
import { withoutControlCharacters } from "~/domain/validation/text-rules";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { pageWindow } from "~/server/platform/db/paging.server";
import { clientCounts } from "~/server/platform/db/schema.server";
import { applicantProfile, applicantProfilesPage } from "~/server/accounts/index.server";
import { clientRecords } from "~/server/applications/index.server";
import { classifySearch, searchKinds } from "./client-search-terms.server";
import { searchClientRows } from "./client-search.server";
import type { ClientDetail, ClientList } from "~/domain/views/admin-clients";

/**
 * The admin client view (docs/requirements.md §3 /admin/clients, §7): a searchable, paginated list of profiles
 * and one selected client's profile, bank accounts, applications and documents.
 *
 * Sensitive columns are never selected here: bank numbers are shown from their plaintext
 * last-4 / last-2 columns and an application only says whether it has an SSN. Decrypting one value is
 * reveal.server.ts's job, on an explicit request. Every read writes an audit row.
 */

export const CLIENTS_PAGE_SIZE = 25;
/** Longest search accepted (longer input is cut). */
export const CLIENT_SEARCH_MAX = 100;

const USER_ID = /^[A-Za-z0-9_-]{1,100}$/;

export type ClientListQuery = { q: string; page: number };

/** Escapes LIKE's wildcards (and its escape character) so the text matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A positive page number from a query value ("2" → 2); anything else → 1. */
export function parsePage(value: string | null | undefined): number {
  if (!value || !/^\d{1,6}$/.test(value)) return 1;
  return Math.max(1, Number(value));
}

/** A user id as the auth library makes them, or null. */
export function parseUserId(value: string | null | undefined): string | null {
  return value && USER_ID.test(value) ? value : null;
}

/** ?q=&page=&client= of /admin/clients, validated. */
export function parseClientsUrl(url: URL): ClientListQuery & { clientId: string | null } {
  return {
    q: withoutControlCharacters(url.searchParams.get("q") ?? "").trim().slice(0, CLIENT_SEARCH_MAX),
    page: parsePage(url.searchParams.get("page")),
    clientId: parseUserId(url.searchParams.get("client")),
  };
}

/**
 * The client list (docs/decisions/0043). Without a search: applicant profiles (staff excluded) in
 * order of full name (ties by e-mail, then id, so pages never overlap), read off an index, with the
 * total from the trigger-kept client_counts row; a page past the end shows the last page. With a
 * search: the first page of applicants it matches (by name, e-mail, phone, application id prefix or
 * the last 4 of an SSN / account number), `more` telling whether there are others.
 */
export async function listClients(query: ClientListQuery, { actor, request }: Caller, db: Db = getDb()): Promise<ClientList> {
  const q = query.q.trim().slice(0, CLIENT_SEARCH_MAX);
  let list: ClientList;
  let auditDetails: Record<string, unknown>;
  if (q) {
    const terms = classifySearch(q);
    const rows = await searchClientRows(db, terms, CLIENTS_PAGE_SIZE + 1);
    const clients = rows.slice(0, CLIENTS_PAGE_SIZE);
    const more = rows.length > CLIENTS_PAGE_SIZE;
    list = { q, page: 1, pageCount: 1, pageSize: CLIENTS_PAGE_SIZE, total: clients.length, more, clients };
    const kinds = searchKinds(terms);
    // The audit log keeps what was searched, except four digits (an SSN's or account's last 4): only that such a search ran.
    auditDetails = { q: terms.last4 ? "last4" : q, kinds, count: clients.length, more };
  } else {
    const [counted] = await db.select({ clients: clientCounts.clients }).from(clientCounts).where(eq(clientCounts.name, "applicants"));
    const total = Math.max(0, counted?.clients ?? 0);
    const { page, pageCount, limit, offset } = pageWindow(total, query.page, CLIENTS_PAGE_SIZE);
    const clients = await applicantProfilesPage(limit, offset, db);
    list = { q, page, pageCount, pageSize: CLIENTS_PAGE_SIZE, total, more: false, clients };
    auditDetails = { q, page, count: clients.length, total };
  }

  await writeAudit(db, { actor, action: "client.list", table: "profiles", details: auditDetails, request });
  return list;
}

/**
 * One client's details, or null when there is no such applicant (staff included). The profile's
 * phone and address are often empty (sign-up asks neither), so the latest application's contact
 * details come along, for the page to show labelled as such. Writes 'client.view' when found.
 */
export async function getClientDetail(clientId: string, { actor, request }: Caller, db: Db = getDb()): Promise<ClientDetail | null> {
  const profile = await applicantProfile(clientId, db);
  if (!profile) return null;

  const { latestContact, accounts, applications, documents } = await clientRecords(clientId, db);

  await writeAudit(db, {
    actor,
    action: "client.view",
    table: "profiles",
    recordId: clientId,
    details: { bankAccounts: accounts.length, applications: applications.length, documents: documents.length },
    request,
  });

  return {
    profile,
    latestApplicationContact: latestContact
      ? {
          phone: latestContact.phone,
          address: [latestContact.addressLine1, latestContact.addressLine2].filter(Boolean).join(", "),
          city: latestContact.city,
          state: latestContact.state,
          zipCode: latestContact.zipCode,
          submittedAt: latestContact.submittedAt.toISOString(),
        }
      : null,
    bankAccounts: accounts.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
    applications: applications.map(({ requestedAmountCents, ...a }) => ({ ...a, requestedAmount: dollarsOf(requestedAmountCents), hasSsn: Boolean(a.hasSsn), submittedAt: a.submittedAt.toISOString() })),
    documents: documents.map((d) => ({ ...d, uploadedAt: d.uploadedAt.toISOString() })),
  };
}
