import { formatDay } from "~/domain/formats";
/**
 * Where the information behind a denial came from, and what the notice of action taken must then say.
 * Pure: the e-mail (server/platform/mail/templates.server.ts) and the applicant's application page render the
 * same parts, so the page and the notice never say different things.
 *
 * When a consumer report was used, the Fair Credit Reporting Act (15 U.S.C. 1681m(a)) requires the
 * agency's name, address and telephone number, the statement that it did not make the decision, the
 * rights to a free copy within 60 days and to dispute, and, when a credit score was used, the score
 * disclosures of 15 U.S.C. 1681g(f): the score, its range, up to four key factors (plus the number of
 * inquiries when that was a factor, which does not count toward the four) and the date. The wording is
 * Regulation B's model form C-3 (12 CFR part 1002, appendix C), verbatim.
 */

export const KEY_FACTORS_MAX = 4;

export type CreditScoreDisclosure = {
  score: number;
  rangeLow: number;
  rangeHigh: number;
  /** The date the score was created, 'yyyy-MM-dd'. */
  scoreDate: string;
  /** One to four, most important first. */
  keyFactors: string[];
  /** The number of recent inquiries was a key factor (listed in addition to the four). */
  inquiriesFactor: boolean;
};

export type ConsumerReportingAgency = { name: string; address: string; phone: string };

/** Stored with the decision (loan_applications.denial_source). */
export type DenialSource =
  | { kind: "applicant" }
  | { kind: "consumer_report"; agency: ConsumerReportingAgency; score: CreditScoreDisclosure | null };

export const APPLICANT_SOURCE: DenialSource = { kind: "applicant" };

/** The choices of the deny dialog, in its words. */
export const DENIAL_SOURCE_LABELS = {
  applicant: "Only information the applicant gave us (application and documents)",
  consumer_report: "A consumer report (credit bureau)",
} as const satisfies Record<DenialSource["kind"], string>;

/** Model form C-3's consumer-report paragraph (15 U.S.C. 1681m(a)). */
export const CONSUMER_REPORT_DISCLOSURE =
  "Our credit decision was based in whole or in part on information obtained in a report from the consumer reporting agency listed below. You have a right under the Fair Credit Reporting Act to know the information contained in your credit file at the consumer reporting agency. The reporting agency played no part in our decision and is unable to supply specific reasons why we have denied credit to you. You also have a right to a free copy of your report from the reporting agency, if you request it no later than 60 days after you receive this notice. In addition, if you find that any information contained in the report you receive is inaccurate or incomplete, you have the right to dispute the matter with the reporting agency.";

/** Model form C-3's credit score paragraph (15 U.S.C. 1681g(f)). */
export const CREDIT_SCORE_DISCLOSURE =
  "We also obtained your credit score from this consumer reporting agency and used it in making our credit decision. Your credit score is a number that reflects the information in your consumer report. Your credit score can change, depending on how the information in your consumer report changes.";

/** The model form's "based in whole or in part on information obtained from …", naming the applicant as the source. */
export const OWN_INFORMATION_NOTICE =
  "Our credit decision was based in whole or in part on information obtained from you, in your application and the documents you gave us. We did not use a consumer report in making this decision.";

/** The key factor the model form lists apart from the four. */
export const INQUIRIES_FACTOR = "Number of recent inquiries on your consumer report";

/** A piece of the notice: the same shapes as the e-mail's blocks, so both render them one to one. */
export type NoticePart =
  | { kind: "p"; text: string }
  | { kind: "strong"; text: string }
  | { kind: "fields"; rows: [label: string, value: string][] }
  | { kind: "list"; items: string[] };


/** The key factors as the notice lists them: the four (at most), then the inquiries when they were a factor. */
export function keyFactorsOf(score: CreditScoreDisclosure): string[] {
  return [...score.keyFactors.slice(0, KEY_FACTORS_MAX), ...(score.inquiriesFactor ? [INQUIRIES_FACTOR] : [])];
}

/** What the notice says about where its information came from (null or unreadable: the applicant). */
export function denialSourceNotice(source: DenialSource | null | undefined): NoticePart[] {
  if (!source || source.kind !== "consumer_report") return [{ kind: "p", text: OWN_INFORMATION_NOTICE }];
  const parts: NoticePart[] = [
    { kind: "p", text: CONSUMER_REPORT_DISCLOSURE },
    {
      kind: "fields",
      rows: [
        ["Name", source.agency.name],
        ["Address", source.agency.address],
        ["Telephone number", source.agency.phone],
      ],
    },
  ];
  const score = source.score;
  if (score) {
    parts.push(
      { kind: "p", text: CREDIT_SCORE_DISCLOSURE },
      {
        kind: "fields",
        rows: [
          ["Your credit score", String(score.score)],
          ["Scores range from", `a low of ${score.rangeLow} to a high of ${score.rangeHigh}`],
          ["Date", formatDay(score.scoreDate)],
        ],
      },
      { kind: "strong", text: "Key factors that adversely affected your credit score:" },
      { kind: "list", items: keyFactorsOf(score) },
    );
  }
  return parts;
}

/** One line for staff: what the notice said about its source ("Consumer report: Equifax, (800) 685-1111; score 580 (300-850), November 20, 2026"). */
export function denialSourceSummary(source: DenialSource | null): string {
  if (!source || source.kind !== "consumer_report") return "Information from the applicant (no consumer report)";
  const { agency, score } = source;
  const line = `Consumer report: ${agency.name}, ${agency.address}, ${agency.phone}`;
  if (!score) return `${line}; no credit score used`;
  return `${line}; score ${score.score} (${score.rangeLow}-${score.rangeHigh}), ${formatDay(score.scoreDate)}; key factors: ${keyFactorsOf(score).join("; ")}`;
}

/** A stored value read back defensively (a JSON column): anything unexpected is the applicant's own information. */
export function readDenialSource(value: unknown): DenialSource | null {
  if (!value || typeof value !== "object") return null;
  const v = value as { kind?: unknown; agency?: ConsumerReportingAgency; score?: CreditScoreDisclosure | null };
  if (v.kind === "applicant") return APPLICANT_SOURCE;
  if (v.kind !== "consumer_report" || !v.agency || typeof v.agency.name !== "string") return null;
  return { kind: "consumer_report", agency: v.agency, score: v.score ?? null };
}
