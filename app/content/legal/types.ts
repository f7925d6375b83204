/** The shape of a legal page (privacy, terms, disclosures): plain data, rendered by components/legal. */

export type LegalBlock =
  | { kind: "p"; text: string }
  | { kind: "ul"; items: readonly string[] }
  /** A definition list: term, then its explanation. */
  | { kind: "dl"; items: readonly { term: string; definition: string }[] }
  | { kind: "table"; caption: string; head: readonly string[]; rows: readonly (readonly string[])[] }
  /** The company's phone, e-mail and postal address, as links. */
  | { kind: "contact" }
  /** A highlighted notice (the ECOA notice, the calculator disclaimer). */
  | { kind: "notice"; title?: string; text: string };

export type LegalSection = {
  /** Anchor id (also the table of contents target). */
  id: string;
  heading: string;
  blocks: readonly LegalBlock[];
};

export type LegalDocument = {
  title: string;
  /** One or two sentences under the title. */
  summary: string;
  /** The page's meta (and Open Graph) description. */
  description: string;
  sections: readonly LegalSection[];
};

export const p = (text: string): LegalBlock => ({ kind: "p", text });
export const ul = (...items: string[]): LegalBlock => ({ kind: "ul", items });
