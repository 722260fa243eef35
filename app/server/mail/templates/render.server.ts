import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/** The doctype @react-email/render puts before a message: mail clients expect XHTML 1.0. */
export const MAIL_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * An e-mail component as a complete HTML document, synchronously (the template functions return
 * their `Mail` at once). React escapes every value the component puts in text or attributes.
 */
export function renderMailHtml(element: ReactElement): string {
  return `${MAIL_DOCTYPE}${renderToStaticMarkup(element)}`;
}
