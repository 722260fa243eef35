import { Mail, MapPin, MessageCircle, Phone } from "lucide-react";
import { Link } from "react-router";
import { business, mailtoLink, telLink, whatsappGreeting, whatsappLink } from "~/content/business";
import { servicePages } from "~/content/service-pages";
import { Logo } from "./logo";

const companyLinks = [
  { to: "/about", label: "How It Works" },
  { to: "/pricing", label: "Pricing" },
  { to: "/contact", label: "Contact" },
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/terms", label: "Terms of Service" },
] as const;

export function Footer() {
  return (
    <footer className="mt-auto bg-ink text-slate-200">
      <div className="mx-auto grid max-w-[1200px] gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div>
          <Logo inverse />
          <p className="mt-4 text-sm leading-relaxed">{business.description}</p>
          <ul className="mt-5 flex gap-3" aria-label="Social media">
            {business.social.map((s) => (
              <li key={s.name}>
                <a
                  href={s.href}
                  rel="noopener noreferrer"
                  className="inline-flex h-9 min-w-9 items-center justify-center rounded-full border border-slate-500 px-2 text-xs font-semibold hover:bg-white hover:text-ink"
                >
                  {s.name}
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-labelledby="footer-services">
          <h2 id="footer-services" className="text-sm font-semibold tracking-wide text-white uppercase">
            Services
          </h2>
          <ul className="mt-4 space-y-2 text-sm">
            {servicePages.map((s) => (
              <li key={s.path}>
                <Link to={s.path} className="hover:text-white hover:underline">
                  {s.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company" className="text-sm font-semibold tracking-wide text-white uppercase">
            Company
          </h2>
          <ul className="mt-4 space-y-2 text-sm">
            {companyLinks.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="hover:text-white hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Get in touch</h2>
          <address className="mt-4 space-y-3 text-sm not-italic">
            <p className="flex gap-2">
              <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>
                {business.address.lines.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </span>
            </p>
            <p>
              <a href={telLink} className="inline-flex items-center gap-2 hover:text-white hover:underline">
                <Phone className="size-4" aria-hidden="true" />
                {business.phone.display}
              </a>
            </p>
            <p>
              <a
                href={whatsappLink(whatsappGreeting)}
                rel="noopener noreferrer"
                className="inline-flex items-center gap-2 hover:text-white hover:underline"
              >
                <MessageCircle className="size-4" aria-hidden="true" />
                WhatsApp {business.whatsapp.display}
              </a>
            </p>
            <p>
              <a href={mailtoLink} className="inline-flex items-center gap-2 hover:text-white hover:underline">
                <Mail className="size-4" aria-hidden="true" />
                {business.email}
              </a>
            </p>
            <p>{business.hoursLong}</p>
          </address>
        </div>
      </div>
      <div className="border-t border-slate-700">
        <p className="mx-auto max-w-[1200px] px-4 py-5 text-xs text-slate-300 sm:px-6 lg:px-8">
          © {new Date().getFullYear()} {business.name}. {business.tagline}. Guidance on this site is general
          information, not tax advice for your situation.
        </p>
      </div>
    </footer>
  );
}
