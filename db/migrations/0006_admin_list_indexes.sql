-- Trigram matching for the staff panel's client search (substring of name or e-mail).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "client_cases_current_stage_idx";--> statement-breakpoint
CREATE INDEX "client_cases_stage_number_idx" ON "client_cases" USING btree ("current_stage","number" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "client_cases_counters_idx" ON "client_cases" USING btree ("current_stage","finalcopies");--> statement-breakpoint
CREATE INDEX "user_role_idx" ON "user" USING btree ("role");--> statement-breakpoint
CREATE INDEX "user_search_trgm_idx" ON "user" USING gin (lower("name" || ' ' || "email") gin_trgm_ops);--> statement-breakpoint
-- Exactly the client accounts have a case, from the moment they exist, whatever created them
-- (sign-up, Google, a staff invitation, a role change): listing and counting clients never
-- has to fill gaps or join the accounts first.
CREATE OR REPLACE FUNCTION client_case_follows_role() RETURNS trigger AS $$
BEGIN
  IF NEW.role = 'user' THEN
    INSERT INTO client_cases (user_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  ELSE
    DELETE FROM client_cases WHERE user_id = NEW.id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER user_client_case
  AFTER INSERT OR UPDATE OF role ON "user"
  FOR EACH ROW EXECUTE FUNCTION client_case_follows_role();--> statement-breakpoint
INSERT INTO client_cases (user_id) SELECT id FROM "user" WHERE role = 'user' ON CONFLICT DO NOTHING;--> statement-breakpoint
DELETE FROM client_cases WHERE user_id IN (SELECT id FROM "user" WHERE role <> 'user');
