import { todayUtc } from "~/domain/dates";
import type { ChargeOffPanelData, ProtectionsPanelData } from "~/domain/views/charge-off";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { chargeOffPanel } from "./charge-off.server";
import { loadLedger } from "./ledger.server";
import { protectionsPanel } from "./loan-protections.server";

/** The staff loan page's Protections and Charge-off panels (the loader already checked the loan exists and audited the view). */
export async function chargeOffAndProtections(loanId: string, viewerId: string, db: Db = getDb(), today: string = todayUtc()): Promise<{ chargeOff: ChargeOffPanelData; protections: ProtectionsPanelData } | null> {
  const ledger = await loadLedger(loanId, db, today);
  if (!ledger) return null;
  return { chargeOff: await chargeOffPanel(ledger.loan, ledger.state, viewerId, db), protections: await protectionsPanel(ledger.loan, db, today) };
}
