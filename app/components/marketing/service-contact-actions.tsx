import { MessageCircle, Phone } from "lucide-react";
import { ButtonAnchor } from "~/components/ui/button";
import { telLink, whatsappLink } from "~/content/business";

/**
 * The two contact actions every service page offers: a tel: call button and a WhatsApp chat link
 * whose prefilled text names the service.
 */
export function ServiceContactActions({
  whatsappText,
  size = "lg",
  className = "",
  inverse = false,
  stacked = false,
}: {
  whatsappText: string;
  size?: "md" | "lg";
  className?: string;
  /** On a dark background. */
  inverse?: boolean;
  /** One button per row at every width (for narrow side panels). */
  stacked?: boolean;
}) {
  return (
    <div className={`flex flex-col gap-3 ${stacked ? "" : "sm:flex-row sm:flex-wrap"} ${className}`}>
      <ButtonAnchor href={telLink} variant={inverse ? "inverse" : "primary"} size={size}>
        <Phone className="size-5" aria-hidden="true" />
        Call us
      </ButtonAnchor>
      <ButtonAnchor
        href={whatsappLink(whatsappText)}
        target="_blank"
        rel="noopener noreferrer"
        variant="secondary"
        size={size}
        className={inverse ? "border-white" : ""}
      >
        <MessageCircle className="size-5" aria-hidden="true" />
        Chat on WhatsApp
        <span className="sr-only"> (opens in a new tab)</span>
      </ButtonAnchor>
    </div>
  );
}
