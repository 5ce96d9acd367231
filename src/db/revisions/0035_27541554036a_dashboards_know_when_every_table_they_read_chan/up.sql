-- hand-written
-- The change log of revision 0022 (list/count-cache.ts) extended to every table a dashboard's
-- answer reads besides those (list/kept-answers.ts): its tags and their types, duplicates, costs
-- and cost types, roles, documents, and a case's links to tags, incidents and other cases.
CREATE TRIGGER "incident_tag_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "incident_tag" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "incident_duplicate_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "incident_duplicate" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "incident_cost_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "incident_cost" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "incident_cost_type_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "incident_cost_type" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "tag_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tag" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "tag_type_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tag_type" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "participant_role_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "participant_role" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "document_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "document" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "record_document_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "record_document" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "case_tag_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "case_tag" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "case_duplicate_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "case_duplicate" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "case_related_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "case_related" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "case_incident_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "case_incident" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
