import { BadgeCheck, Clock, Mail, MessageCircle, Phone } from "lucide-react";
import { business, mailtoLink, telLink, whatsappGreeting, whatsappLink } from "~/content/business";

const iconClass = "size-3.5 shrink-0 sm:size-4";

/**
 * Phone, WhatsApp, e-mail, hours and the licensed-professionals badge, at every width: on a
 * phone the two groups wrap onto short rows in a smaller type instead of hiding anything.
 */
export function ContactBar() {
  return (
    <aside aria-label="Contact details" className="bg-ink text-xs text-white sm:text-sm">
      <div className="mx-auto flex max-w-[1200px] flex-wrap items-center justify-between gap-x-6 px-4 py-1 sm:gap-y-1 sm:px-6 sm:py-2 lg:px-8">
        <ul className="flex flex-wrap items-center gap-x-4 sm:gap-x-5 sm:gap-y-1">
          <li>
            <a href={telLink} className="inline-flex min-h-6 items-center gap-1.5 hover:underline">
              <Phone className={iconClass} aria-hidden="true" />
              <span className="sr-only">Phone: </span>
              {business.phone.display}
            </a>
          </li>
          <li>
            <a
              href={whatsappLink(whatsappGreeting)}
              className="inline-flex min-h-6 items-center gap-1.5 hover:underline"
              rel="noopener noreferrer"
              target="_blank"
            >
              <MessageCircle className={iconClass} aria-hidden="true" />
              WhatsApp<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
          <li>
            <a href={mailtoLink} className="inline-flex min-h-6 items-center gap-1.5 hover:underline">
              <Mail className={iconClass} aria-hidden="true" />
              {business.email}
            </a>
          </li>
        </ul>
        <ul className="flex flex-wrap items-center gap-x-4 sm:gap-x-5 sm:gap-y-1">
          <li className="inline-flex min-h-6 items-center gap-1.5">
            <Clock className={iconClass} aria-hidden="true" />
            {business.hours}
          </li>
          <li className="inline-flex min-h-6 items-center gap-1.5">
            <BadgeCheck className={`${iconClass} text-accent-500`} aria-hidden="true" />
            {business.licensedBadge}
          </li>
        </ul>
      </div>
    </aside>
  );
}
