/**
 * The E-SIGN consent (15 U.S.C. 7001(c)) a borrower gives before the first electronic disclosure of a
 * loan agreement. The text is versioned: what a borrower agreed to is the version stored with their
 * consent, so changing a word here means a new version (tests/unit/esign-consent.test.ts pins the
 * version to the text's hash). Pure, no I/O, shown on the consent screen and printed on the signing
 * certificate.
 */

export const ESIGN_CONSENT_VERSION = "2026-11-24.1";

export const ESIGN_CONSENT_TITLE = "Consent to Electronic Records and Signatures";

export type ConsentSection = { heading: string; paragraphs: string[] };

/** 7001(c)(1)(B)–(D): what is delivered, how to withdraw and get paper, the hardware and software needed. */
export const ESIGN_CONSENT_SECTIONS: readonly ConsentSection[] = [
  {
    heading: "What we will provide electronically",
    paragraphs: [
      "If you agree, we will provide these records electronically, through your account on this website and by e-mail notices that link to it: the federal Truth in Lending disclosure, the loan agreement and promissory note, the signing certificate, notices of action taken on your application, and other notices about this loan that the law requires us to give you in writing.",
      "Your consent covers this loan application and the loan that results from it. You will sign the loan agreement electronically, and your electronic signature has the same effect as a handwritten one.",
    ],
  },
  {
    heading: "Hardware and software you need",
    paragraphs: [
      "A computer, tablet or phone with an internet connection; a current version of Chrome, Firefox, Safari or Edge with cookies and JavaScript enabled; software that opens PDF files (most browsers do); an e-mail account you can receive messages at; and storage space or a printer to keep copies.",
      "If these requirements change in a way that could stop you from opening or keeping a record, we will tell you and ask for your consent again.",
    ],
  },
  {
    heading: "Paper copies",
    paragraphs: [
      "You may ask for a paper copy of any record we provide electronically, at no charge, by sending us a message from your application page or by writing to us at the address on our Contact page. Asking for paper does not withdraw your consent.",
    ],
  },
  {
    heading: "Withdrawing your consent",
    paragraphs: [
      "You may withdraw your consent at any time, at no charge, with Withdraw E-SIGN Consent on your application page or by sending us a message. Withdrawal takes effect once we receive it and does not affect records delivered or signed before then. If you withdraw before signing, we will send the agreement to you on paper to sign and return, which may delay funding.",
      "Keep your e-mail address up to date in your account so our notices reach you.",
    ],
  },
];

/** The statement the borrower checks (7001(c)(1)(C)(ii): consent in a way that shows they can open the records). */
export const ESIGN_CONSENT_STATEMENT =
  "I have read this consent, I can open and keep the records described above, and I agree to receive them and to sign electronically.";

/** The consent's full text, in order, as one string (hashed by the version test; printed nowhere else). */
export function esignConsentText(): string {
  return [ESIGN_CONSENT_TITLE, ...ESIGN_CONSENT_SECTIONS.flatMap((s) => [s.heading, ...s.paragraphs]), ESIGN_CONSENT_STATEMENT].join("\n");
}
