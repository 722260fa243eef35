import { BadgeCheck, Clock, Mail, MessageCircle, Phone } from "lucide-react";
import { business, mailtoLink, telLink, whatsappGreeting, whatsappLink } from "~/content/business";

export function ContactBar() {
  return (
    <aside aria-label="Contact details" className="bg-ink text-sm text-white">
      <div className="mx-auto flex max-w-[1200px] flex-wrap items-center justify-between gap-x-6 gap-y-1 px-4 py-2 sm:px-6 lg:px-8">
        <ul className="flex flex-wrap items-center gap-x-5 gap-y-1">
          <li>
            <a href={telLink} className="inline-flex items-center gap-1.5 hover:underline">
              <Phone className="size-4" aria-hidden="true" />
              <span className="sr-only">Phone: </span>
              {business.phone.display}
            </a>
          </li>
          <li>
            <a
              href={whatsappLink(whatsappGreeting)}
              className="inline-flex items-center gap-1.5 hover:underline"
              rel="noopener noreferrer"
              target="_blank"
            >
              <MessageCircle className="size-4" aria-hidden="true" />
              WhatsApp<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
          <li className="hidden sm:block">
            <a href={mailtoLink} className="inline-flex items-center gap-1.5 hover:underline">
              <Mail className="size-4" aria-hidden="true" />
              {business.email}
            </a>
          </li>
        </ul>
        <ul className="flex flex-wrap items-center gap-x-5 gap-y-1">
          <li className="inline-flex items-center gap-1.5">
            <Clock className="size-4" aria-hidden="true" />
            {business.hours}
          </li>
          <li className="hidden items-center gap-1.5 md:inline-flex">
            <BadgeCheck className="size-4 text-accent-500" aria-hidden="true" />
            {business.licensedBadge}
          </li>
        </ul>
      </div>
    </aside>
  );
}
