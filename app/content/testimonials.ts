/**
 * The nine static testimonial cards (docs/requirements.md §2 Testimonials, §3 "Testimonial card: name, role,
 * content"). The home page shows the first three of this exact list, so keep the strongest three first.
 * Ratings are whole stars, 1 to 5.
 */
export interface Testimonial {
  name: string;
  role: string;
  content: string;
  rating: 1 | 2 | 3 | 4 | 5;
  location?: string;
}

export const testimonials: readonly Testimonial[] = [
  {
    name: "Sarah Mitchell",
    role: "Small Business Owner",
    location: "Austin, TX",
    rating: 5,
    content:
      "I needed working capital to open a second bakery location and the banks wanted months. Private Loans gave me a decision the next day and the funds were in my account that same week. Clear terms, no surprises.",
  },
  {
    name: "David Chen",
    role: "Real Estate Investor",
    location: "Phoenix, AZ",
    rating: 5,
    content:
      "Their bridge loan let me close on a fix-and-flip property in ten days. The loan officer walked me through the loan-to-value numbers up front, and the closing went exactly as promised.",
  },
  {
    name: "Maria Rodriguez",
    role: "Registered Nurse",
    location: "Miami, FL",
    rating: 5,
    content:
      "Consolidating three credit cards into one fixed payment changed my budget completely. The application took me twenty minutes on my phone and someone actually called to explain every fee.",
  },
  {
    name: "James Thompson",
    role: "Restaurant Owner",
    location: "Chicago, IL",
    rating: 5,
    content:
      "When our walk-in freezer failed in July we could not wait on a bank. The team understood a seasonal business and structured the repayment around our busy months.",
  },
  {
    name: "Emily Watson",
    role: "Homeowner",
    location: "Denver, CO",
    rating: 4,
    content:
      "We financed a kitchen and roof renovation with a home improvement loan. The document checklist made it easy to know what to upload, and funding arrived two business days after approval.",
  },
  {
    name: "Robert Johnson",
    role: "Logistics Company Founder",
    location: "Atlanta, GA",
    rating: 5,
    content:
      "We added four trucks to our fleet with a business loan sized to our contracts rather than our credit history alone. Professional, discreet and fast from the first call.",
  },
  {
    name: "Aisha Patel",
    role: "Dentist",
    location: "San Jose, CA",
    rating: 5,
    content:
      "Buying into an established practice meant a tight timeline. Private Loans reviewed my financials quickly and kept me updated at every step, so I never had to chase anyone for news.",
  },
  {
    name: "Michael Brooks",
    role: "Software Engineer",
    location: "Seattle, WA",
    rating: 4,
    content:
      "I used an auto loan to buy a used EV from a private seller. The rate was competitive, the portal showed my application status in real time, and the signing was entirely online.",
  },
  {
    name: "Linda Nguyen",
    role: "Property Manager",
    location: "Houston, TX",
    rating: 5,
    content:
      "Our third loan with Private Loans and the experience is as good as the first. They remember our portfolio, answer the phone, and treat our information with real care.",
  },
];
