import { Star } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { accountTypeLabel } from "~/domain/labels";

/** A bank account's first line on the staff screens: bank, account type, Primary (and any more badges). */
export function BankAccountHeading({ account, children }: { account: { bankName: string; accountType: string; isPrimary: boolean }; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="font-semibold text-foreground">{account.bankName}</span>
      <Badge variant="secondary">{accountTypeLabel(account.accountType)}</Badge>
      {account.isPrimary ? (
        <Badge variant="info">
          <Star aria-hidden="true" className="mr-1 size-3" />
          Primary
        </Badge>
      ) : null}
      {children}
    </div>
  );
}
