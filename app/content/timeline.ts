/** The company timeline on /about (docs/requirements.md §2, §4 "Timeline item: year, title, description"). */
export type TimelineItem = {
  year: string;
  title: string;
  description: string;
};

export const timeline: readonly TimelineItem[] = [
  {
    year: "2009",
    title: "Company Founded",
    description: "Private Loans opens in Wilmington, Delaware, funding bridge loans and working capital for local investors and businesses.",
  },
  {
    year: "2012",
    title: "$100M Funded",
    description: "Three years in, our clients pass $100 million in funded loans, almost all of them through referrals.",
  },
  {
    year: "2016",
    title: "Digital Platform Launch",
    description: "Our online application goes live: clients apply, upload documents and follow their status from any device.",
  },
  {
    year: "2020",
    title: "COVID-19 Support",
    description: "We offer payment deferrals and fast bridge financing to help small businesses and families through the pandemic.",
  },
  {
    year: "2023",
    title: "$2B+ Milestone",
    description: "Total funding passes $2 billion across personal, business, private and hard money loans.",
  },
  {
    year: "2024",
    title: "Nationwide Expansion",
    description: "Private Loans now serves clients from coast to coast, with new auto, debt consolidation and home improvement programs.",
  },
];
