import type { ReactNode } from "react";
import { formatMoney } from "~/domain/money";

/** What a payment schedule's row shows of an installment (the agreement's preview, the borrower's and the staff's loan page). */
export type InstallmentRow = { number: number; dueDate: string; paymentCents: number; principalCents: number; interestCents: number; balanceCents: number };

/**
 * An installment's number, due day and amounts (payment, principal, interest, balance after) as the
 * first six cells of its schedule row; each table keeps its own cell classes and way of showing a day.
 */
export function InstallmentCells({ row, day, cell, numberCell = cell, moneyCell }: { row: InstallmentRow; day: (date: string) => ReactNode; cell: string; numberCell?: string; moneyCell: string }) {
  return (
    <>
      <td className={numberCell}>{row.number}</td>
      <td className={cell}>{day(row.dueDate)}</td>
      {[row.paymentCents, row.principalCents, row.interestCents, row.balanceCents].map((cents, index) => (
        <td key={index} className={moneyCell}>
          {formatMoney(cents)}
        </td>
      ))}
    </>
  );
}
