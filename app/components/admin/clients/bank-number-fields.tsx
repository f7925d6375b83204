import { Detail } from "~/components/ui/detail-list";
import { maskAccountNumber, maskRoutingNumber } from "./format";
import { SensitiveValue } from "./sensitive-value";

/** A bank account's two numbers: shown masked, each revealed on its own request. */
const BANK_NUMBERS = [
  { kind: "account_number", label: "Account Number", testId: "account-number", masked: (a: BankNumbers) => maskAccountNumber(a.accountNumberLast4) },
  { kind: "routing_number", label: "Routing Number", testId: "routing-number", masked: (a: BankNumbers) => maskRoutingNumber(a.routingNumberLast2) },
] as const;

type BankNumbers = { id: string; bankName: string; accountNumberLast4: string; routingNumberLast2: string };

/** The account and routing numbers of one bank account, as two terms of its <dl> (client view, application page). */
export function BankNumberFields({ account }: { account: BankNumbers }) {
  return BANK_NUMBERS.map((number) => (
    <Detail key={number.kind} label={number.label} className="min-w-0" labelClassName="text-sm" valueClassName="mt-0.5 font-medium break-words text-foreground">
      <SensitiveValue kind={number.kind} id={account.id} masked={number.masked(account)} label={`${number.label.toLowerCase()} of the ${account.bankName} account`} testId={number.testId} />
    </Detail>
  ));
}
