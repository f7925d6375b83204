import { useLocation } from "react-router";
import type { Route } from "./+types/loan-detail";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

/** One module, seven routes (ids loan-<slug>, see app/routes.ts): the path names the loan. */
const loanNames: Record<string, string> = {
  personal: "Personal Loans",
  business: "Business Loans",
  private: "Private Loans",
  "hard-money": "Hard Money Loans",
  "debt-consolidation": "Debt Consolidation Loans",
  auto: "Auto Loans",
  "home-improvement": "Home Improvement Loans",
};

function loanName(pathname: string): string {
  const slug = pathname.replace(/\/+$/, "").split("/").pop() ?? "";
  return loanNames[slug] ?? "Loan Details";
}

export const meta: Route.MetaFunction = ({ location }) => {
  const name = loanName(location.pathname);
  return pageMeta(
    name,
    `${name} from Private Loans: amounts, rates, terms and key benefits, with a decision within 24 hours.`,
  );
};

export default function LoanDetailPage() {
  const { pathname } = useLocation();
  return <PlaceholderPage title={loanName(pathname)} release="the public-website release" />;
}
