/**
 * The e-mails' colours and type: the site's theme tokens (app/app.css), written out as values
 * because mail clients read neither CSS variables nor style sheets, only inline styles.
 */
export const mailColors = {
  ink: "#0f1b33",
  inkSoft: "#3b4a63",
  inkMuted: "#55637a",
  primary: "#0b6a88",
  primaryDark: "#08536b",
  surface: "#f6f8fb",
  line: "#dfe5ee",
  white: "#ffffff",
} as const;

/** Inter where the reader has it installed (mail clients load no web fonts), else the system's sans-serif. */
export const mailFont = 'Inter, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
