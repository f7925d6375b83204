/**
 * What an applicant's dashboard shows, as plain data: server/dashboard.server.ts returns these shapes and
 * the dashboard components render them (types only, so no component imports a server module).
 */

export type DashboardLoan = {
  id: string;
  status: string;
  approvedAmount: number;
  balance: number;
  monthlyPayment: number;
  interestRate: number;
  termMonths: number;
  approvalDate: string;
};

export type DashboardApplication = {
  id: string;
  userId: string;
  status: string;
  loanType: string;
  requestedAmount: number;
  purpose: string;
  submittedAt: string;
  documents: { id: string; fileName: string; documentType: string }[];
};

export type Dashboard = { fullName: string; approvedLoans: DashboardLoan[]; applications: DashboardApplication[] };
