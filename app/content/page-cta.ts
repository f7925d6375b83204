/**
 * The words of a content page's closing call to action (about, FAQ, how it works). Its buttons are
 * always Apply Now and a link to /contact; only where Apply Now leads and the contact button's words differ.
 */
export type PageCtaCopy = {
  title: string;
  text: string;
  /** /auth from the about page, /apply elsewhere (docs/requirements.md §2). */
  applyTo: "/auth" | "/apply";
  /** "Contact Us" unless the page words it otherwise. */
  contactLabel?: string;
};
