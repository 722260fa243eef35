-- A search of the staff list reads only the cases: each case carries its client's name and
-- e-mail address as the search matches them (lower case, "name email"), with a trigram index.
-- The list's search used to find the clients in "user" first and then each one's case of the
-- year: at 1,000,000 clients, a last name found 10,000 times cost 10,000 probes for the cases on
-- top of the rows found. Kept by triggers: a new case takes its client's, a changed name or
-- address changes every case of that client.
ALTER TABLE "client_cases" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "client_cases" c SET "search_text" = lower(u."name" || ' ' || u."email") FROM "user" u WHERE u."id" = c."user_id";--> statement-breakpoint
CREATE INDEX "client_cases_search_trgm_idx" ON "client_cases" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE FUNCTION case_search_text_of_client() RETURNS trigger AS $$
BEGIN
  SELECT lower(u.name || ' ' || u.email) INTO NEW.search_text FROM "user" u WHERE u.id = NEW.user_id;
  NEW.search_text := coalesce(NEW.search_text, '');
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER client_cases_search_text BEFORE INSERT OR UPDATE OF user_id ON client_cases
  FOR EACH ROW EXECUTE FUNCTION case_search_text_of_client();--> statement-breakpoint
CREATE FUNCTION client_search_text_follows_user() RETURNS trigger AS $$
BEGIN
  UPDATE client_cases SET search_text = lower(NEW.name || ' ' || NEW.email) WHERE user_id = NEW.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER user_search_text AFTER UPDATE OF name, email ON "user"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION client_search_text_follows_user();
