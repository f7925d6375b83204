/**
 * What the admin client view (/admin/clients) shows, as plain data: server/staff/clients.server.ts returns
 * these shapes and the page components render them (types only, so no component imports a server module).
 * Sensitive values are never part of them: bank numbers appear as their last digits only.
 */

export type ClientSummary = { id: string; fullName: string; email: string };

export type ClientList = {
  q: string;
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  /** A search shows its first page only: true when more applicants match than are shown. */
  more: boolean;
  clients: ClientSummary[];
};

export type ClientBankAccount = {
  id: string;
  applicationId: string;
  bankName: string;
  accountHolderName: string;
  accountType: string;
  isPrimary: boolean;
  isVerified: boolean;
  accountNumberLast4: string;
  routingNumberLast2: string;
  createdAt: string;
};

export type ClientApplication = {
  id: string;
  loanType: string;
  requestedAmount: number;
  status: string;
  submittedAt: string;
  /** Whether an SSN is on file (the value itself is only ever revealed on request). */
  hasSsn: boolean;
};

export type ClientDocument = {
  id: string;
  applicationId: string;
  fileName: string;
  documentType: string;
  fileSize: number;
  mimeType: string;
  uploadedAt: string;
};

export type ClientDetail = {
  profile: {
    id: string;
    fullName: string;
    email: string;
    phone: string | null;
    address: string | null;
    city: string | null;
    state: string | null;
    zipCode: string | null;
  };
  /** Phone and address from the client's newest application (shown where the profile has none). */
  latestApplicationContact: {
    phone: string;
    address: string;
    city: string;
    state: string;
    zipCode: string;
    submittedAt: string;
  } | null;
  bankAccounts: ClientBankAccount[];
  applications: ClientApplication[];
  documents: ClientDocument[];
};
