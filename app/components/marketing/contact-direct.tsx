import { Clock, Mail, MessageCircle, Phone } from "lucide-react";
import { business, mailtoLink, telLink, whatsappLink } from "~/content/business";

/** The contact page's side column: the firm's phone, WhatsApp, e-mail and hours, and the free first consultation. */
export function ContactDirect() {
  return (
    <aside aria-labelledby="contact-direct" className="space-y-6">
      <div className="rounded-[var(--radius-card)] bg-white p-6 shadow-card">
        <h2 id="contact-direct" className="text-lg font-semibold">
          Reach us directly
        </h2>
        <ul className="mt-4 space-y-4 text-sm">
          <li>
            <a href={telLink} className="inline-flex items-center gap-3 font-medium text-primary-700 hover:underline">
              <Phone className="size-5" aria-hidden="true" />
              {business.phone.display}
            </a>
          </li>
          <li>
            <a
              href={whatsappLink(`Hello ${business.name}, I would like to talk about my US taxes.`)}
              rel="noopener noreferrer"
              className="inline-flex items-center gap-3 font-medium text-primary-700 hover:underline"
            >
              <MessageCircle className="size-5" aria-hidden="true" />
              WhatsApp {business.whatsapp.display}
            </a>
          </li>
          <li>
            <a href={mailtoLink} className="inline-flex items-center gap-3 font-medium text-primary-700 hover:underline">
              <Mail className="size-5" aria-hidden="true" />
              {business.email}
            </a>
          </li>
          <li className="inline-flex items-center gap-3 text-ink-soft">
            <Clock className="size-5" aria-hidden="true" />
            {business.hoursLong}
          </li>
        </ul>
      </div>
      <div className="rounded-[var(--radius-card)] border border-primary-100 bg-primary-50 p-6 text-sm text-ink-soft">
        <h2 className="text-base font-semibold text-ink">Your first 30 minutes are free</h2>
        <p className="mt-2">
          The first consultation costs nothing. We look at your visa history and tell you which forms you need
          and what they cost, before any work starts.
        </p>
      </div>
    </aside>
  );
}
