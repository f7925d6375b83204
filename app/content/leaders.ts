import { illustration, type Illustration } from "~/content/illustration";

/**
 * The leadership team on /about (docs/requirements.md §2, §4 "Leader: name, title, bio, image, education").
 * Portraits are our own SVG illustrations in public/images/leaders (no photographs of real people).
 */

export type Leader = {
  name: string;
  title: string;
  bio: string;
  education: readonly string[];
  image: Illustration;
};

function portrait(slug: string, name: string): Illustration {
  return illustration("leaders", slug, `Illustrated portrait of ${name}`, { width: 240, height: 240 });
}

/** In the spec's order: chief executive; office administrator; compliance and legal; lending. */
export const leaders: readonly Leader[] = [
  {
    name: "Michael Harrington",
    title: "Founder & Chief Executive Officer",
    bio: "Michael spent fourteen years in commercial banking before founding Private Loans in 2009. He sets the company's lending strategy and still reviews the largest commercial and bridge loans himself.",
    education: ["MBA, The Wharton School, University of Pennsylvania", "B.S. in Economics, University of Delaware"],
    image: portrait("michael-harrington", "Michael Harrington"),
  },
  {
    name: "Patricia Gomez",
    title: "Office Administrator",
    bio: "Patricia keeps the office, the client files and the schedule running. She coordinates closings, answers client questions and makes sure every document reaches the right desk the same day.",
    education: ["B.A. in Business Administration, Temple University", "Certified Administrative Professional (CAP)"],
    image: portrait("patricia-gomez", "Patricia Gomez"),
  },
  {
    name: "Daniel Okafor",
    title: "Chief Compliance Officer & Legal Counsel",
    bio: "Daniel oversees regulatory compliance, state licensing, fair lending and data privacy. Before joining Private Loans he advised consumer finance companies on federal and state lending law.",
    education: ["J.D., Georgetown University Law Center", "B.A. in Political Science, University of Maryland"],
    image: portrait("daniel-okafor", "Daniel Okafor"),
  },
  {
    name: "Rebecca Lin",
    title: "Senior Loan Officer & Lending Manager",
    bio: "Rebecca leads our loan officers and underwriting team. She has closed more than 2,000 personal, business and real estate loans and is known for structuring financing around each client's cash flow.",
    education: ["B.S. in Finance, The Pennsylvania State University", "Licensed Mortgage Loan Originator"],
    image: portrait("rebecca-lin", "Rebecca Lin"),
  },
];
